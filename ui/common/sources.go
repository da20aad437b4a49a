package common

import (
	"charm.land/bubbles/v2/key"

	"github.com/rewardlens/rewardlens/engine"
)

// SourcePick is a tab's choice of source with --source-by (engine's
// sources): all of them, or one. Its zero value is all of them.
type SourcePick struct {
	// chosen is 0 for all sources, k+1 for SourceNames[k].
	chosen int
}

// NewSourceKey returns the key that moves a tab's SourcePick to the next
// source, disabled until SetSourceKey finds sources.
func NewSourceKey() key.Binding {
	return key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "next source (--source-by): all, then each"), key.WithDisabled())
}

// SetSourceKey enables k only when ev has sources.
func SetSourceKey(k *key.Binding, ev *engine.Evaluation) { k.SetEnabled(ev.HasSources()) }

// Next moves to the next source of ev, after the last back to all.
func (p *SourcePick) Next(ev *engine.Evaluation) {
	p.chosen = (p.chosen + 1) % (len(ev.SourceNames) + 1)
}

// Source returns the chosen source, an index in ev.SourceNames, or -1 for
// all of them (also without sources, or when ev has fewer than chosen).
func (p SourcePick) Source(ev *engine.Evaluation) int {
	if !ev.HasSources() || p.chosen > len(ev.SourceNames) {
		return -1
	}
	return p.chosen - 1
}

// Label names the choice: "all sources" or the source's name, unescaped
// (the caller escapes it: it comes from the data).
func (p SourcePick) Label(ev *engine.Evaluation) string {
	if src := p.Source(ev); src >= 0 {
		return ev.SourceNames[src]
	}
	return "all sources"
}

// NoSourceWeight stands for the weight of an objective no source has
// (engine.Evaluation.SourceLess).
const NoSourceWeight = "no source"

// WeightText is objective k's weight as shown over every trajectory of
// ev, w its weight without sources: FormatWeight of the weight the
// sources having k give it (engine.Evaluation.ObjectiveWeight; "by
// source" when they differ), NoSourceWeight when none has it.
func WeightText(ev *engine.Evaluation, k int, w float64) string {
	if ev.SourceLess(k) {
		return NoSourceWeight
	}
	return FormatWeight(ev.ObjectiveWeight(k, w))
}
