package engine

import (
	"cmp"
	"strconv"
	"strings"
)

// MethodSettings are the settings of Options that a method reads, each
// set only where it reads it (its MethodSpec): Normalize where the method
// reads it (Method.ReadsNormalize) other than through its scale; the
// Scale of a method that reads it (grpo), ScaleNone when not normalised;
// the Epsilon and Std of a method that divides by std + epsilon (gdpo;
// grpo but under scale none; grpo-passk normalised); what a group of one
// is given (grpo, rloo).
// Those not read are nil, 0 or "". stats, the trainer-agreement warnings
// and the "read as" line (ChangedSettings) say these.
type MethodSettings struct {
	Normalize  *bool
	Scale      Scale
	Epsilon    float64
	Std        Std
	GroupOfOne GroupOfOne
}

// MethodSettings returns the settings of o that o.Method reads, with the
// defaults for those o leaves "" or 0.
func (o Options) MethodSettings() MethodSettings {
	var m MethodSettings
	spec := Spec(o.Method)
	if spec == nil {
		return m
	}
	divides := spec.Divides
	switch {
	case spec.ReadsScale:
		m.Scale = o.scaleInForce()
		divides = divides && m.Scale != ScaleNone
	case spec.Unnormalised == "":
		normalize := o.Normalize
		m.Normalize = &normalize
		// A method computed group by group divides only to normalise
		// (grpo-passk); gdpo, by batch, divides its objectives either way.
		divides = divides && (normalize || spec.batch != nil)
	}
	if divides {
		m.Epsilon, m.Std = o.EpsilonOrDefault(), cmp.Or(o.Std, StdSample)
	}
	if spec.ReadsGroupOfOne {
		m.GroupOfOne = cmp.Or(o.GroupOfOne, GroupOfOneZero)
	}
	return m
}

// scaleInForce returns the scale grpo divides by under o, which the
// engine computes with and MethodSettings reports: o.Scale (group for
// ""), none with normalize off, and group for batch under scope batch,
// where the comparison group is the batch: its std is the batch's.
func (o Options) scaleInForce() Scale {
	switch {
	case !o.Normalize:
		return ScaleNone
	case o.Scale == ScaleBatch && o.Scope == ScopeBatch:
		return ScaleGroup
	}
	return cmp.Or(o.Scale, ScaleGroup)
}

// ChangedSettings lists, as text, the settings of o that its method
// reads (MethodSettings) and that differ from DefaultOptions: "scale
// none" (grpo, also for normalize off), "epsilon 1e-06", "population
// std", "a group of one: score", "normalize off", and "priority a, b (a
// to 0.01)" (lexicographic), and "objectives normalised by minmax" and
// "score in float32" (every method: the score is written out). The "read as" line and the dashboard's status line say them
// beside the method, and say none that the method ignores (pareto adds
// no epsilon, grpo under scale none none).
func (o Options) ChangedSettings() []string {
	def := DefaultOptions()
	m := o.MethodSettings()
	var out []string
	if m.Scale != "" && m.Scale != def.Scale {
		out = append(out, "scale "+string(m.Scale))
	}
	if m.Epsilon != 0 && m.Epsilon != def.Epsilon {
		out = append(out, "epsilon "+strconv.FormatFloat(m.Epsilon, 'g', -1, 64))
	}
	if m.Std != "" && m.Std != def.Std {
		out = append(out, string(m.Std)+" std")
	}
	if m.GroupOfOne != "" && m.GroupOfOne != def.GroupOfOne {
		out = append(out, "a group of one: "+string(m.GroupOfOne))
	}
	if m.Normalize != nil && !*m.Normalize {
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
	if o.scoreIn32() {
		out = append(out, "score in float32")
	}
	return out
}
