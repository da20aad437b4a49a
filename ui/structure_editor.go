package ui

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// The weights editor's second line edits the constraints, the gates and
// the penalty lambda (docs/CONTRACT.md, Objectives with structure): c adds
// a constraint, a a gate ("NAME: EXPR"), ←/→ select one, enter edits it,
// x removes it, p edits lambda. A changed constraint or gate is compiled at
// once, and refused with the CLI's error, shown under the line, the text
// kept for fixing; once compiled it is evaluated on the loaded
// trajectories off the event loop (session.StructureJob), reading them
// again from their files when it reads a field a lean trajectory lacks.

// structureEdit is what the editor's text input is editing.
type structureEdit int

const (
	editNone structureEdit = iota
	editConstraint
	editGate
	editPenalty
)

// structureEditor is the state of the editor's structure line.
type structureEditor struct {
	// selected is the selected item: a constraint, then the gates after
	// them; -1 for none.
	selected int
	// editing is what input edits, and index which item (-1: a new one).
	editing structureEdit
	index   int
	input   textinput.Model
	// err is why the last change was refused, "" when it was not.
	err string
	// job is the change being evaluated, nil when none; gen counts the
	// changes, so that a job overtaken by another is dropped, and cancel
	// stops it.
	job    *session.StructureJob
	gen    int
	cancel context.CancelFunc
	// next is the command that runs job, until its message lands, for
	// Settle (as recomputer.next).
	next tea.Cmd
}

// structureDoneMsg is a structure job that ran, the gen-th change, and
// the text input's edit that made it (editNone for x), reopened should
// the change be refused.
type structureDoneMsg struct {
	job   *session.StructureJob
	gen   int
	edit  structureEdit
	index int
	text  string
}

// typing reports whether the editor's text input has the keys.
func (e *structureEditor) typing() bool { return e.editing != editNone }

// lists returns the constraints and gates shown: those of the change being
// evaluated, else the session's.
func (e *structureEditor) lists(s *session.Session) (constraints, gates []string) {
	if e.job != nil {
		return e.job.Constraints, e.job.Gates
	}
	return s.Config.Constraints, s.Config.Gates
}

// startEdit opens the text input on what, item index (-1: a new one),
// holding text.
func (e *structureEditor) startEdit(what structureEdit, index int, text string) tea.Cmd {
	e.editing, e.index, e.err = what, index, ""
	e.input = textinput.New()
	e.input.Prompt = map[structureEdit]string{editConstraint: "constraint> ", editGate: "gate (NAME: EXPR)> ", editPenalty: "penalty λ> "}[what]
	e.input.SetValue(text)
	e.input.CursorEnd()
	return e.input.Focus()
}

// handleStructureKey handles the structure line's keys of the weights
// editor; handled is false for the keys it leaves to the others.
func (m *Model) handleStructureKey(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	e := &m.weights.structure
	s := m.common.Session
	if e.typing() {
		switch msg.String() {
		case "enter":
			return m.submitStructure(), true
		case "esc":
			e.editing, e.err = editNone, ""
			m.layout()
			return nil, true
		}
		e.input, cmd = e.input.Update(msg)
		return cmd, true
	}
	constraints, gates := e.lists(s)
	items := len(constraints) + len(gates)
	k := &m.keys
	switch {
	case key.Matches(msg, k.AddConstraint):
		return e.startEdit(editConstraint, -1, ""), true
	case key.Matches(msg, k.AddGate):
		return e.startEdit(editGate, -1, ""), true
	case key.Matches(msg, k.EditPenalty):
		// Empty, the current value as the placeholder: what is typed
		// replaces it.
		cmd := e.startEdit(editPenalty, -1, "")
		e.input.Placeholder = strconv.FormatFloat(s.Options.Penalty, 'g', -1, 64)
		return cmd, true
	case key.Matches(msg, k.SelectStructure):
		if items > 0 {
			step := 1
			if msg.String() == "left" {
				step = -1
			}
			e.selected = ((e.selected+step)%items + items) % items
		}
	case key.Matches(msg, k.EditStructure):
		switch {
		case e.selected < 0 || e.selected >= items:
			return nil, false
		case e.selected < len(constraints):
			return e.startEdit(editConstraint, e.selected, constraints[e.selected]), true
		default:
			return e.startEdit(editGate, e.selected-len(constraints), gates[e.selected-len(constraints)]), true
		}
	case key.Matches(msg, k.RemoveStructure):
		if e.selected < 0 || e.selected >= items {
			return nil, true
		}
		if e.selected < len(constraints) {
			constraints = slices.Delete(slices.Clone(constraints), e.selected, e.selected+1)
		} else {
			j := e.selected - len(constraints)
			gates = slices.Delete(slices.Clone(gates), j, j+1)
		}
		e.selected = min(e.selected, items-2)
		return m.changeStructure(constraints, gates), true
	default:
		return nil, false
	}
	return nil, true
}

// submitStructure applies the text input's value (enter).
func (m *Model) submitStructure() tea.Cmd {
	e := &m.weights.structure
	s := m.common.Session
	text := strings.TrimSpace(e.input.Value())
	if e.editing == editPenalty && text == "" {
		e.editing, e.err = editNone, "" // nothing typed: lambda stays
		m.layout()
		return nil
	}
	if e.editing == editPenalty {
		p, err := strconv.ParseFloat(text, 64)
		if err != nil || !(p >= 0) || math.IsInf(p, 0) {
			e.err = fmt.Sprintf("penalty %q: must be a finite number >= 0", text)
			m.layout()
			return nil
		}
		e.editing, e.err = editNone, ""
		m.layout()
		s.Options.Penalty = p
		return m.recompute()
	}
	constraints, gates := e.lists(s)
	constraints, gates = slices.Clone(constraints), slices.Clone(gates)
	list := &constraints
	if e.editing == editGate {
		list = &gates
	}
	switch {
	case text == "" && e.index >= 0:
		*list = slices.Delete(*list, e.index, e.index+1)
	case text == "":
		e.editing = editNone
		m.layout()
		return nil
	case e.index >= 0:
		(*list)[e.index] = text
	default:
		*list = append(*list, text)
	}
	return m.changeStructure(constraints, gates)
}

// changeStructure starts evaluating the constraints and gates given,
// unless they do not compile or the dashboard follows a run: then the
// editor says why, its text kept.
func (m *Model) changeStructure(constraints, gates []string) tea.Cmd {
	e := &m.weights.structure
	defer m.layout()
	if m.live != nil {
		e.err = "constraints and gates cannot change while following a run: restart with --constraint and --gate"
		return nil
	}
	j, err := m.common.Session.NewStructureJob(constraints, gates)
	if err != nil {
		e.err = err.Error()
		return nil
	}
	done := structureDoneMsg{job: j, edit: e.editing, index: e.index, text: e.input.Value()}
	e.editing, e.err = editNone, ""
	if e.cancel != nil {
		e.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.job, e.cancel = j, cancel
	e.gen++
	done.gen = e.gen
	e.next = func() tea.Msg {
		j.Run(ctx)
		return done
	}
	return e.next
}

// structureDone shows a structure job's evaluation, unless another change
// overtook it, and recomputes the result; refused, the change's text is
// back in the input with the reason under it.
func (m *Model) structureDone(msg structureDoneMsg) tea.Cmd {
	e := &m.weights.structure
	if msg.gen != e.gen {
		return nil
	}
	e.job, e.cancel, e.next = nil, nil, nil
	defer m.layout()
	if err := m.common.Session.ApplyStructure(msg.job); err != nil {
		var cmd tea.Cmd
		if msg.edit != editNone && !e.typing() {
			cmd = e.startEdit(msg.edit, msg.index, msg.text) // the text kept for fixing
		}
		e.err = err.Error()
		return cmd
	}
	return m.recompute()
}

// structureView renders the structure line, or the text input, and the
// error under it, each cut to width.
func (e *structureEditor) view(c *common.Common, width int) []string {
	st := c.Styles
	s := c.Session
	var line string
	if e.typing() {
		hint := "enter apply · esc cancel · empty removes"
		if e.editing == editPenalty {
			hint = "enter apply · esc cancel"
		}
		line = e.input.View() + "  " + st.Muted.Render(hint)
	} else {
		constraints, gates := e.lists(s)
		item := func(i int, text string) string {
			text = textsafe.Line(text)
			if i == e.selected {
				return st.Selected.Render("[" + text + "]")
			}
			return st.Value.Render(text)
		}
		var cs, gs []string
		for i, text := range constraints {
			cs = append(cs, item(i, text))
		}
		for i, text := range gates {
			gs = append(gs, item(len(constraints)+i, text))
		}
		none := st.Muted.Render("none")
		join := func(parts []string) string {
			if len(parts) == 0 {
				return none
			}
			return strings.Join(parts, st.Muted.Render(" · "))
		}
		line = st.Label.Render("constraints (c)") + " " + join(cs) + "  " +
			st.Label.Render("gates (a)") + " " + join(gs) + "  " +
			st.Label.Render("λ (p)") + " " + st.Value.Render(strconv.FormatFloat(s.Options.Penalty, 'g', 4, 64))
		if e.job != nil {
			doing := "evaluating…"
			if e.job.Rereads > 0 {
				doing = fmt.Sprintf("reading %d trajectories again from their files for the fields they need…", e.job.Rereads)
			}
			line += "  " + st.Warning.Render(doing)
		} else if len(cs)+len(gs) > 0 {
			line += "  " + st.Muted.Render("←/→ select · enter edit · x remove")
		}
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
