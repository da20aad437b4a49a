package engine

import (
	"strconv"
	"strings"
)

// MethodSettings lists, as text, the settings of o that its method uses
// and that differ from DefaultOptions: "scale batch" (grpo), "epsilon
// 1e-06" (grpo, gdpo), "a group of one: score" (grpo, rloo), "priority
// a, b (a to 0.01)" (lexicographic), and for every method but rloo (whose
// baseline is its scale) "normalize off", and for every method
// "objectives normalised by minmax". A status
// line says them beside the method, and says none that the method
// ignores (pareto adds no epsilon).
func (o Options) MethodSettings() []string {
	def := DefaultOptions()
	var out []string
	if o.Method == GRPO && o.Scale != "" && o.Scale != def.Scale {
		out = append(out, "scale "+string(o.Scale))
	}
	if (o.Method == GRPO || o.Method == GDPO) && o.EpsilonOrDefault() != def.Epsilon {
		out = append(out, "epsilon "+strconv.FormatFloat(o.EpsilonOrDefault(), 'g', -1, 64))
	}
	if (o.Method == GRPO || o.Method == GDPO) && o.Std != "" && o.Std != def.Std {
		out = append(out, string(o.Std)+" std")
	}
	if (o.Method == GRPO || o.Method == RLOO) && o.GroupOfOne != "" && o.GroupOfOne != def.GroupOfOne {
		out = append(out, "a group of one: "+string(o.GroupOfOne))
	}
	if !o.Normalize && o.Method.ReadsNormalize() {
		out = append(out, "normalize off")
	}
	if o.Method == Lexicographic && len(o.Priority) > 0 {
		p := "priority " + strings.Join(o.Priority, ", ")
		for _, name := range o.Priority {
			if t, ok := o.PriorityTolerance[name]; ok {
				p += " (" + name + " to " + strconv.FormatFloat(t, 'g', -1, 64) + ")"
			}
		}
		out = append(out, p)
	}
	if o.NormalizeObjectives != "" && o.NormalizeObjectives != NormNone {
		out = append(out, "objectives normalised by "+string(o.NormalizeObjectives))
	}
	return out
}
