package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/structureeditor"
)

// weightEditor is the weight-editing mode (w): a line of every objective's
// weight, one of them selected for + and - to change. For the svrl
// computer the objectives are task, verification_cost and efficiency, so
// its verification and efficiency weights are edited the same way.
type weightEditor struct {
	active   bool
	selected int
	// structure is the line of constraints, gates and penalty under the
	// weights.
	structure structureeditor.Editor
}

// move selects the objective step places away, wrapping around.
func (e *weightEditor) move(step, objectives int) {
	e.selected = ((e.selected+step)%objectives + objectives) % objectives
}

// view renders the line of weights, cut to width.
func (e weightEditor) view(c *common.Common, width int) string {
	st := c.Styles
	weights := c.Session.Weights()
	parts := make([]string, len(weights))
	for k, o := range c.Session.Evaluation.Objectives {
		text := fmt.Sprintf("%s %.2f", textsafe.Line(o.Name), weights[k])
		if k == e.selected {
			parts[k] = st.Selected.Render("[" + text + "]")
		} else {
			parts[k] = st.Value.Render(" " + text + " ")
		}
	}
	title := st.Title.Render("weights")
	// Under a method that ranks (pareto), the weights move the score and
	// not the rewards: said first, where it is never cut.
	if m := c.Session.Options.Method; !m.RewardsWeighted() {
		title += st.Warning.Render(fmt.Sprintf(" (score only under %s)", m))
	}
	norm := c.Session.Result.Options.NormalizeObjectives
	line := title + " " + strings.Join(parts, " ") + "  " +
		st.Label.Render("norm (o)") + " " + st.Value.Render(string(norm)) + "  "
	line += st.Muted.Render(common.ScoreFormula(c.Session.Result, width-ansi.StringWidth(line)))
	return ansi.Truncate(line, width, "…")
}

// handleStructureKey hands the weights editor's keys to its structure
// line; handled is false for the keys it leaves to the others.
func (m *Model) handleStructureKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.keys
	c := structureeditor.Context{Session: m.common.Session, Following: m.live != nil, Keys: &structureeditor.Keys{
		AddConstraint: k.AddConstraint, AddGate: k.AddGate, Select: k.SelectStructure,
		Edit: k.EditStructure, Remove: k.RemoveStructure, EditPenalty: k.EditPenalty}}
	cmd, then, handled := m.weights.structure.HandleKey(c, msg)
	return m.structureThen(cmd, then), handled
}

// structureThen lays the screen out again and recomputes when the
// structure line says to, after cmd.
func (m *Model) structureThen(cmd tea.Cmd, then structureeditor.Then) tea.Cmd {
	if then.Layout {
		cmd = tea.Batch(cmd, m.layout())
	}
	if then.Recompute {
		return tea.Batch(cmd, m.recompute())
	}
	return cmd
}
