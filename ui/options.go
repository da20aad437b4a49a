package ui

import (
	"fmt"
	"math"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
)

// weightStep is how much + and - change a weight.
const weightStep = 0.05

// The root's changes to the session. Every one ends in sessionChanged, at
// once or when its recompute lands (recompute.go), so that no tab ever
// shows a result computed with other settings than the header says.

// cycleMethod switches to the method step places away among those the
// session's options can compute (engine.MethodsFor: lexicographic when
// they give priorities).
func (m *Model) cycleMethod(step int) tea.Cmd {
	s := m.common.Session
	methods := engine.MethodsFor(s.Options)
	n := len(methods)
	i := slices.Index(methods, s.Options.Method)
	s.Options.Method = methods[((i+step)%n+n)%n]
	return m.recompute()
}

// setCompareMethod makes method the Compare tab's method B, whose result a
// recompute brings (see recompute.go).
func (m *Model) setCompareMethod(method engine.Method) tea.Cmd {
	m.common.Session.CompareMethod = method
	return m.recompute()
}

// toggleScope compares within groups or within whole batches.
func (m *Model) toggleScope() tea.Cmd {
	s := m.common.Session
	if s.Options.Scope == engine.ScopeGroup {
		s.Options.Scope = engine.ScopeBatch
	} else {
		s.Options.Scope = engine.ScopeGroup
	}
	return tea.Batch(m.recompute(), m.settingsNotice())
}

// settingsNotice says the scope and normalisation just chosen in the
// status line: a header too narrow for them (goals first at 80 cells)
// would show no change. Under a method without normalisation (rloo) it
// says the scope alone, as the header does.
func (m *Model) settingsNotice() tea.Cmd {
	o := m.common.Session.Options
	text := "scope: " + string(o.Scope)
	if normalize := common.NormalizeText(o); normalize != "" {
		text += " · normalize: " + normalize
	}
	if engine.Spec(o.Method).ReadsScale && o.Scope == engine.ScopeBatch && o.Normalize && o.Scale == engine.ScaleBatch {
		text += " (the group is the batch: its std is the batch's)"
	}
	return m.status.SetNotice(text, nil)
}

// toggleNormalize turns normalisation on or off; under grpo it steps
// through TRL's scale_rewards instead: the group's std, the batch's, none,
// leaving out the batch's under scope batch, where the group is the batch
// and it would give the same rewards. Under a method that has no
// normalisation (rloo) it changes nothing and says why.
func (m *Model) toggleNormalize() tea.Cmd {
	o := &m.common.Session.Options
	switch {
	case !o.Method.ReadsNormalize():
		return m.status.SetInfo(fmt.Sprintf("%s has no normalisation: %s", o.Method, engine.Spec(o.Method).Unnormalised))
	case !engine.Spec(o.Method).ReadsScale:
		o.Normalize = !o.Normalize
	case !o.Normalize || o.Scale == engine.ScaleNone:
		o.Normalize, o.Scale = true, engine.ScaleGroup
	case o.Scale == engine.ScaleGroup && o.Scope != engine.ScopeBatch:
		o.Scale = engine.ScaleBatch
	default:
		o.Normalize, o.Scale = false, engine.ScaleGroup
	}
	return tea.Batch(m.recompute(), m.settingsNotice())
}

// changeWeight adds delta to the selected objective's weight, across 0
// and below it as --weight allows (a negative weight is a setting, as in
// TRL's reward_weights, not a mistake to clamp). The sum is rounded to
// 1e-9 so that steps of 0.05 do not drift (0.1 + 0.05 + 0.05 is not 0.2
// in floating point).
func (m *Model) changeWeight(delta float64) tea.Cmd {
	k := m.weights.selected
	return m.setWeight(k, math.Round((m.common.Session.Weights()[k]+delta)*1e9)/1e9)
}

// setWeight sets objective k's weight to w, a finite number, and
// recomputes. A -0 becomes 0, which the line shows as 0.00, not -0.00.
func (m *Model) setWeight(k int, w float64) tea.Cmd {
	s := m.common.Session
	weights := slices.Clone(s.Weights())
	if w == 0 {
		w = 0
	}
	weights[k] = w
	s.Options.Weights = weights
	return m.recompute()
}

// cycleObjectiveNorm moves to the next objective normalisation of
// engine.ObjectiveNorms, wrapping around.
func (m *Model) cycleObjectiveNorm() tea.Cmd {
	s := m.common.Session
	norms := engine.ObjectiveNorms
	s.Options.NormalizeObjectives = norms[(slices.Index(norms, s.Options.NormalizeObjectives)+1)%len(norms)]
	return m.recompute()
}

// moveBatch shows the batch step places away; the result stays, only the
// shown batch moves. In follow mode, the view no longer follows the newest
// batch (F returns to it).
func (m *Model) moveBatch(step int) tea.Cmd {
	s := m.common.Session
	b := min(max(s.Batch+step, 0), len(s.Result.Ranking.Batches)-1)
	if b == s.Batch {
		return nil
	}
	s.SetBatch(b)
	m.pause()
	return m.sessionChanged()
}

// stepBatch is [ (step -1) and ] (1): the batch before or after the one
// shown, or, at the first or the last, the status line saying so rather
// than a key that seems ignored.
func (m *Model) stepBatch(step int) tea.Cmd {
	s := m.common.Session
	switch {
	case step < 0 && s.Batch == 0:
		return m.status.SetInfo("[: already at the first batch")
	case step > 0 && s.Batch == len(s.Result.Ranking.Batches)-1:
		return m.status.SetInfo("]: already at the last batch")
	}
	return m.moveBatch(step)
}

// sessionChanged refreshes what the root derives from the session and
// tells the tabs (see sessionChangedTabs).
func (m *Model) sessionChanged() tea.Cmd {
	s := m.common.Session
	m.header.Refresh(m.common.Styles, s)
	m.status.Refresh(s)
	m.keys.setBatches(len(s.Result.Ranking.Batches))
	return tea.Batch(m.sessionChangedTabs(), m.background(), m.layoutNotes())
}
