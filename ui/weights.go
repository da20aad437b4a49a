package ui

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/structureeditor"
)

// weightEditor is the weight-editing mode (w): a line of every objective's
// weight, one of them selected for + and - to change, or = to type. For
// the svrl computer the objectives are task, verification_cost and
// efficiency, so its verification and efficiency weights are edited the
// same way.
type weightEditor struct {
	active   bool
	selected int
	// typing says the text input has the keys, editing the selected
	// weight; err is why the last value typed was refused, "" when it
	// was not.
	typing bool
	input  textinput.Model
	err    string
	// structure is the line of constraints, gates and penalty under the
	// weights.
	structure structureeditor.Editor
}

// The keys the weight's text input leaves to the editor while typing.
var (
	weightApplyKey  = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply"))
	weightCancelKey = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
)

// move selects the objective step places away, wrapping around.
func (e *weightEditor) move(step, objectives int) {
	e.selected = ((e.selected+step)%objectives + objectives) % objectives
}

// startTyping opens the text input on the weight of objective name, empty
// with its weight as the placeholder: what is typed replaces it.
func (e *weightEditor) startTyping(name string, weight float64) tea.Cmd {
	e.typing, e.err = true, ""
	e.input = textinput.New()
	e.input.Prompt = "weight of " + textsafe.Line(name) + "> "
	e.input.Placeholder = common.FormatWeight(weight)
	// The input shows as much of its placeholder as its width: without
	// one, the first character alone ("0" for 0.60).
	e.input.SetWidth(max(len(e.input.Placeholder), common.NumberInputWidth))
	return e.input.Focus()
}

// sourceWeightsRefused is the editor's answer to a weight's change with
// sources (source_by): each source's trajectories are scored with the
// weights of its own [sources.NAME] table, which the editor's do not
// replace.
const sourceWeightsRefused = "refused: with sources (source_by), each source's weights come from its [sources.NAME] table in the config; change them there and open again"

// parseWeight reads a typed weight: a finite number of either sign (TRL's
// reward_weights may be negative).
func parseWeight(text string) (float64, error) {
	w, err := strconv.ParseFloat(text, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) || err == nil && math.IsInf(w, 0):
		return 0, fmt.Errorf("weight %q: too large, must be a finite number", text)
	case err != nil || math.IsNaN(w):
		return 0, fmt.Errorf("weight %q: not a number; type digits, \".\" and \"-\" (0.33, -1, 2)", text)
	}
	return w, nil
}

// view renders the line of weights, or the text input, and the error
// under it, each cut to width.
func (e weightEditor) view(c *common.Common, width int) []string {
	st := c.Styles
	var line string
	if e.typing {
		line = e.input.View() + "  " + st.Muted.Render("enter apply · esc cancel · below 0 too · empty keeps it")
	} else {
		line = e.weightsLine(c, width)
	}
	lines := []string{ansi.Truncate(line, width, "…")}
	if e.err != "" {
		for _, l := range strings.Split(ansi.Wrap(textsafe.Line(e.err), width, " "), "\n") {
			if len(lines) == 3 {
				break
			}
			lines = append(lines, st.Invalid.Render(ansi.Truncate(l, width, "…")))
		}
	}
	return lines
}

// weightsLine is the line of weights, the selected one in brackets, and
// the score's formula in what width leaves. Weights that do not fit
// scroll with the selected one (common.ScrollLine).
func (e weightEditor) weightsLine(c *common.Common, width int) string {
	st := c.Styles
	weights := c.Session.Weights()
	ev := c.Session.Evaluation
	parts := make([]string, len(weights))
	for k, o := range ev.Objectives {
		// With sources, the weight the sources give, not a weight of the
		// top level that scores none of them.
		text := textsafe.Line(o.Name) + " " + common.WeightText(ev, k, weights[k])
		switch {
		case k == e.selected:
			parts[k] = st.Selected.Render("[" + text + "]")
		case ev.SourceLess(k):
			parts[k] = st.Muted.Render(" " + text + " ")
		default:
			parts[k] = st.Value.Render(" " + text + " ")
		}
	}
	// Under a method that ranks (pareto), the weights move the score and
	// not the rewards: said first, where it is never cut, in fewer words
	// when the whole title would leave out weights.
	titles := []string{st.Title.Render("weights")}
	if m := c.Session.Options.Method; !m.RewardsWeighted() {
		titles = []string{
			titles[0] + st.Warning.Render(fmt.Sprintf(" (score only under %s)", m)),
			titles[0] + st.Warning.Render(" (score only)"),
		}
	}
	norm := c.Session.Result.Options.NormalizeObjectives
	normPart := "  " + st.Label.Render("norm (o)") + " " + st.Value.Render(string(norm))
	// The weights and the normalisation come first, the longest title
	// that leaves every weight room; when none does, the window of
	// weights says how many it leaves out ("N→").
	var title, window string
	for _, title = range titles {
		room := width - ansi.StringWidth(title) - 1 - ansi.StringWidth(normPart)
		var leftOut int
		if window, leftOut, _ = common.ScrollLine(st, parts, " ", e.selected, room, nil); leftOut == 0 {
			break
		}
	}
	line := title + " " + window + normPart
	// The score's formula only whole: a cut one's "…" would read as
	// weights left out.
	room := width - ansi.StringWidth(line) - 2
	if formula := common.ScoreFormula(c.Session.Result, room); common.TextWidth(formula) <= room {
		line += "  " + st.Muted.Render(formula)
	}
	return ansi.Truncate(line, width, "…")
}

// handleWeightInput hands a key to the weight's text input while typing:
// enter sets the selected weight to the value typed (nothing typed keeps
// it), or says why it cannot; esc leaves the weight as it was.
func (m *Model) handleWeightInput(msg tea.KeyPressMsg) tea.Cmd {
	e := &m.weights
	switch {
	case key.Matches(msg, weightApplyKey):
		text := strings.TrimSpace(e.input.Value())
		if text == "" {
			e.typing, e.err = false, ""
			return m.layout()
		}
		w, err := parseWeight(text)
		if err != nil {
			e.err = err.Error()
			return m.layout()
		}
		e.typing, e.err = false, ""
		return tea.Batch(m.layout(), m.setWeight(e.selected, w))
	case key.Matches(msg, weightCancelKey):
		e.typing, e.err = false, ""
		return m.layout()
	}
	return e.updateInput(msg)
}

// updateInput hands msg to the weight's text input: a key, a paste, its
// cursor's blinks.
func (e *weightEditor) updateInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.input, cmd = e.input.Update(msg)
	return cmd
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
