package engine

import "strconv"

// MethodSettings lists, as text, the settings of o that its method uses
// and that differ from DefaultOptions: "scale batch" (grpo), "epsilon
// 1e-06" (grpo, gdpo), "a group of one: score" (grpo, rloo). A status
// line says them beside the method, and says none that the method
// ignores (pareto adds no epsilon).
func (o Options) MethodSettings() []string {
	def := DefaultOptions()
	var out []string
	if o.Method == GRPO && o.Scale != "" && o.Scale != def.Scale {
		out = append(out, "scale "+string(o.Scale))
	}
	if (o.Method == GRPO || o.Method == GDPO) && o.epsilon() != def.Epsilon {
		out = append(out, "epsilon "+strconv.FormatFloat(o.epsilon(), 'g', -1, 64))
	}
	if (o.Method == GRPO || o.Method == GDPO) && o.Std != "" && o.Std != def.Std {
		out = append(out, string(o.Std)+" std")
	}
	if (o.Method == GRPO || o.Method == RLOO) && o.GroupOfOne != "" && o.GroupOfOne != def.GroupOfOne {
		out = append(out, "a group of one: "+string(o.GroupOfOne))
	}
	return out
}
