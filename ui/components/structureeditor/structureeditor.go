// Package structureeditor is the weights editor's second line: it edits
// the constraints, the gates and the penalty lambda (docs/CONTRACT.md,
// Objectives with structure).
package structureeditor

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

// edit is what the editor's text input is editing.
type edit int

const (
	editNone edit = iota
	editConstraint
	editGate
	editPenalty
)

// Editor is the state of the structure line.
type Editor struct {
	// selected is the selected item: a constraint, then the gates after
	// them; none when out of their range.
	selected int
	// editing is what input edits, and index which item (-1: a new one).
	editing edit
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
	// the root's Settle (Next).
	next tea.Cmd
}

// DoneMsg is a structure job that ran, the gen-th change, and
// the text input's edit that made it (editNone for x), reopened should
// the change be refused.
type DoneMsg struct {
	job   *session.StructureJob
	gen   int
	edit  edit
	index int
	text  string
}

// typing reports whether the editor's text input has the keys.
func (e *Editor) Typing() bool { return e.editing != editNone }

// The keys the text input leaves to the editor while typing.
var (
	applyKey  = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply"))
	cancelKey = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
)

// TypingKeys returns the keys that work while Typing, for the footer:
// every other key is typed.
func (e *Editor) TypingKeys() []key.Binding { return []key.Binding{applyKey, cancelKey} }

// lists returns the constraints and gates shown: those of the change being
// evaluated, else the session's.
func (e *Editor) lists(s *session.Session) (constraints, gates []string) {
	if e.job != nil {
		return e.job.Constraints, e.job.Gates
	}
	return s.Config.Constraints, s.Config.Gates
}

// startEdit opens the text input on what, item index (-1: a new one),
// holding text.
func (e *Editor) startEdit(what edit, index int, text string) tea.Cmd {
	e.editing, e.index, e.err = what, index, ""
	e.input = textinput.New()
	e.input.Prompt = map[edit]string{editConstraint: "constraint> ", editGate: "gate (NAME: EXPR)> ", editPenalty: "penalty λ> "}[what]
	e.input.SetValue(text)
	e.input.CursorEnd()
	return e.input.Focus()
}

// followingRefusal is why c, a, enter and x change nothing while the
// dashboard follows a run: the batches still to come would be evaluated
// with other constraints than those already read.
const followingRefusal = "constraints and gates cannot change while following a run: restart with --constraint and --gate"

// Keys are the structure line's keys.
type Keys struct {
	AddConstraint, AddGate, Select, Edit, Remove, EditPenalty key.Binding
}

// Then is what the root does after the editor handled a message: lay the
// screen out again (the editor's lines changed), recompute the result (the
// penalty or the constraints and gates changed).
type Then struct{ Layout, Recompute bool }

// Context is what the editor's changes need of the root: the session, its
// keys, and whether the dashboard follows a run (constraints and gates
// then cannot change).
type Context struct {
	Session   *session.Session
	Keys      *Keys
	Following bool
}

// UpdateInput hands msg to the text input while Typing: a key, a paste,
// its cursor's blinks.
func (e *Editor) UpdateInput(msg tea.Msg) tea.Cmd {
	if !e.Typing() {
		return nil
	}
	var cmd tea.Cmd
	e.input, cmd = e.input.Update(msg)
	return cmd
}

// HandleKey handles the structure line's keys; handled is false for the
// keys it leaves to the others.
func (e *Editor) HandleKey(c Context, msg tea.KeyPressMsg) (cmd tea.Cmd, then Then, handled bool) {
	s := c.Session
	if e.Typing() {
		switch {
		case key.Matches(msg, applyKey):
			cmd, then = e.submit(c)
			return cmd, then, true
		case key.Matches(msg, cancelKey):
			e.editing, e.err = editNone, ""
			return nil, Then{Layout: true}, true
		}
		return e.UpdateInput(msg), then, true
	}
	constraints, gates := e.lists(s)
	items := len(constraints) + len(gates)
	k := c.Keys
	selected := e.selected >= 0 && e.selected < items
	if c.Following && (key.Matches(msg, k.AddConstraint, k.AddGate) || selected && key.Matches(msg, k.Edit, k.Remove)) {
		e.err = followingRefusal // said at once, not after the expression is typed
		return nil, Then{Layout: true}, true
	}
	switch {
	case key.Matches(msg, k.AddConstraint):
		return e.startEdit(editConstraint, -1, ""), then, true
	case key.Matches(msg, k.AddGate):
		return e.startEdit(editGate, -1, ""), then, true
	case key.Matches(msg, k.EditPenalty):
		// Empty, the current value as the placeholder: what is typed
		// replaces it.
		cmd := e.startEdit(editPenalty, -1, "")
		e.input.Placeholder = strconv.FormatFloat(s.Options.Penalty, 'g', -1, 64)
		// Its placeholder shown whole, not its first character alone.
		e.input.SetWidth(max(len(e.input.Placeholder), common.NumberInputWidth))
		return cmd, then, true
	case key.Matches(msg, k.Select):
		if items > 0 {
			step := 1
			if msg.String() == "left" {
				step = -1
			}
			e.selected = ((e.selected+step)%items + items) % items
		}
	case key.Matches(msg, k.Edit):
		switch {
		case e.selected < 0 || e.selected >= items:
			return nil, then, false
		case e.selected < len(constraints):
			return e.startEdit(editConstraint, e.selected, constraints[e.selected]), then, true
		default:
			return e.startEdit(editGate, e.selected-len(constraints), gates[e.selected-len(constraints)]), then, true
		}
	case key.Matches(msg, k.Remove):
		if e.selected < 0 || e.selected >= items {
			return nil, then, true
		}
		if e.selected < len(constraints) {
			constraints = slices.Delete(slices.Clone(constraints), e.selected, e.selected+1)
		} else {
			j := e.selected - len(constraints)
			gates = slices.Delete(slices.Clone(gates), j, j+1)
		}
		// The last one removed, the next one added is selected, as the
		// first ever is: never -1, whose item enter could not edit.
		e.selected = max(min(e.selected, items-2), 0)
		return e.change(c, constraints, gates), Then{Layout: true}, true
	default:
		return nil, then, false
	}
	return nil, then, true
}

// Selects reports whether a constraint or gate of s is selected: else
// the edit key (enter) is not the editor's, and goes to the tab.
func (e *Editor) Selects(s *session.Session) bool {
	constraints, gates := e.lists(s)
	return e.selected >= 0 && e.selected < len(constraints)+len(gates)
}

// submit applies the text input's value (enter).
func (e *Editor) submit(c Context) (tea.Cmd, Then) {
	s := c.Session
	text := strings.TrimSpace(e.input.Value())
	if e.editing == editPenalty && text == "" {
		e.editing, e.err = editNone, "" // nothing typed: lambda stays
		return nil, Then{Layout: true}
	}
	if e.editing == editPenalty {
		p, err := strconv.ParseFloat(text, 64)
		if err != nil || !(p >= 0) || math.IsInf(p, 0) {
			e.err = fmt.Sprintf("penalty %q: must be a finite number >= 0", text)
			return nil, Then{Layout: true}
		}
		e.editing, e.err = editNone, ""
		s.Options.Penalty = p
		return nil, Then{Layout: true, Recompute: true}
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
		return nil, Then{Layout: true}
	case e.index >= 0:
		(*list)[e.index] = text
	default:
		*list = append(*list, text)
	}
	return e.change(c, constraints, gates), Then{Layout: true}
}

// change starts evaluating the constraints and gates given, unless they do
// not compile or the dashboard follows a run: then the editor says why,
// its text kept.
func (e *Editor) change(c Context, constraints, gates []string) tea.Cmd {
	if c.Following {
		e.err = followingRefusal
		return nil
	}
	j, err := c.Session.NewStructureJob(constraints, gates)
	if err != nil {
		e.err = err.Error()
		return nil
	}
	done := DoneMsg{job: j, edit: e.editing, index: e.index, text: e.input.Value()}
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

// Done shows a structure job's evaluation, unless another change overtook
// it, and has the result recomputed; refused, the change's text is back in
// the input with the reason under it.
func (e *Editor) Done(s *session.Session, msg DoneMsg) (tea.Cmd, Then) {
	if msg.gen != e.gen {
		return nil, Then{}
	}
	e.job, e.cancel, e.next = nil, nil, nil
	if err := s.ApplyStructure(msg.job); err != nil {
		var cmd tea.Cmd
		if msg.edit != editNone && !e.Typing() {
			cmd = e.startEdit(msg.edit, msg.index, msg.text) // the text kept for fixing
		}
		e.err = err.Error()
		return cmd, Then{Layout: true}
	}
	return nil, Then{Layout: true, Recompute: true}
}

// Next returns the command that runs the change being evaluated, nil when
// none, for a caller that runs commands itself (the root's Settle).
func (e *Editor) Next() tea.Cmd { return e.next }

// Job returns the change being evaluated, nil when none.
func (e *Editor) Job() *session.StructureJob { return e.job }

// Input returns the text being typed.
func (e *Editor) Input() string { return e.input.Value() }

// View renders the structure line, or the text input, and the
// error under it, each cut to width. Following a run, it offers no key
// that changes the constraints or gates (HandleKey refuses them).
func (e *Editor) View(c *common.Common, width int, following bool) []string {
	st := c.Styles
	var line string
	if e.Typing() {
		hint := "enter apply · esc cancel · empty removes"
		if e.editing == editPenalty {
			hint = "enter apply · esc cancel"
		}
		line = e.input.View() + "  " + st.Muted.Render(hint)
	} else {
		line = e.structureLine(c, width, following)
	}
	lines := []string{ansi.Truncate(line, width, "…")}
	for _, l := range errorLines(e.err, width, maxErrorLines(c.Height)) {
		lines = append(lines, st.Invalid.Render(l))
	}
	return lines
}

// maxErrorLines is how many lines a refusal may take on a screen of
// height rows: a quarter of them, at least 3, so that the message (the
// setting's cause, then the objectives') is read whole but for the
// longest.
func maxErrorLines(height int) int { return max(height/4, 3) }

// errorLines wraps err, from data, to width cells at most limit lines;
// when it takes more, the last one shown ends with an ellipsis.
func errorLines(err string, width, limit int) []string {
	if err == "" {
		return nil
	}
	wrapped := strings.Split(ansi.Wrap(textsafe.Line(err), width, " "), "\n")
	for k, l := range wrapped {
		wrapped[k] = ansi.Truncate(l, width, "…")
	}
	if len(wrapped) <= limit {
		return wrapped
	}
	wrapped = wrapped[:limit]
	last := strings.TrimRight(wrapped[limit-1], " ")
	wrapped[limit-1] = ansi.Truncate(last, width-1, "") + "…"
	return wrapped
}
