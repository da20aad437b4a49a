package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// field is one name/value line of the trajectory view; both are safe to
// print.
type field struct{ name, value string }

// openedTrajectory is the trajectory the Trajectories tab shows whole.
type openedTrajectory struct {
	i    int               // its index in the session
	full engine.Trajectory // with its metadata and response, unless err
	err  error             // why they could not be read again
}

// openTrajectory returns trajectory i of s whole: as s keeps it, or, when
// s keeps it lean, read again from its file (one seek and one record).
func openTrajectory(s *session.Session, i int) openedTrajectory {
	o := openedTrajectory{i: i, full: *s.Trajectories.At(i)}
	if o.full.Lean {
		if full, err := loaders.RereadFields(&o.full, s.Computer.Fields.Clone()); err != nil {
			o.err = err
		} else {
			o.full = full
		}
	}
	return o
}

// stale reports whether o is no longer trajectory o.i of s: follow mode
// dropped trajectories before it.
func (o *openedTrajectory) stale(s *session.Session) bool {
	tr := s.Trajectories.At(o.i)
	return tr.ID != o.full.ID || tr.Source != o.full.Source || tr.Offset != o.full.Offset
}

// trajectoryDetail returns what the Trajectories tab shows of the opened
// trajectory: its fields, what the engine computed for it, its metadata
// by sorted key and its whole response, wrapped to width.
func trajectoryDetail(c *common.Common, o *openedTrajectory, width int) string {
	st := c.Styles
	i, tr := o.i, &o.full
	res := c.Session.Result
	input := []field{
		{"id", textsafe.Line(tr.ID)},
		{"batch", strconv.FormatInt(tr.Batch, 10)},
		{"group", textsafe.Line(tr.Group)},
		{"step_count", strconv.FormatInt(tr.StepCount, 10)},
		{"done", strconv.FormatBool(tr.Done)},
		{"read from", textsafe.Line(tr.Where())},
	}
	computed := []field{{"valid", "yes"}}
	if !res.Valid[i] {
		computed[0].value = st.Invalid.Render("no: " + textsafe.Line(res.Causes[i]))
	}
	computed = append(computed,
		field{"score", common.FormatValue(res.Scores[i])},
		field{"reward", common.FormatValue(res.Rewards[i])},
		field{"pareto_rank", rankText(res.Ranks[i])},
		field{"crowding", common.FormatValue(res.Crowding[i])})
	for k, o := range res.Objectives {
		computed = append(computed, field{textsafe.Line(o.Name), common.FormatValue(res.Values[i*res.M+k])})
	}
	sections := []string{
		fieldsView(st, input, width),
		st.Title.Render("computed ("+string(res.Options.Method)+")") + "\n" + fieldsView(st, computed, width),
	}
	return strings.Join(append(sections, bodyView(st, o, width)...), "\n\n")
}

// bodyView returns the sections of o's metadata and response, or, when
// they could not be read again, the error in their place.
func bodyView(st *common.Styles, o *openedTrajectory, width int) []string {
	if o.err != nil {
		msg := lipgloss.Wrap(textsafe.Line(o.err.Error()), width, "")
		return []string{st.Title.Render("metadata and response") + "\n" + st.Invalid.Render(msg)}
	}
	return []string{
		st.Title.Render("metadata") + "\n" + fieldsView(st, metadataFields(o.full.Metadata), width),
		st.Title.Render("response") + "\n" + responseView(st, o.full.ResponseText(), width),
	}
}

// metadataFields lists metadata by sorted key.
func metadataFields(md map[string]any) []field {
	keys := make([]string, 0, len(md))
	for k := range md {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fields := make([]field, len(keys))
	for j, k := range keys {
		fields[j] = field{textsafe.Line(k), textsafe.Line(metadataText(md[k]))}
	}
	return fields
}

// metadataText shows a metadata value: a number, a string, a bool or null.
func metadataText(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return strconv.Quote(v)
	}
	return fmt.Sprint(v)
}

// fieldsView aligns fields in two columns, each value wrapped to what is
// left of width.
func fieldsView(st *common.Styles, fields []field, width int) string {
	if len(fields) == 0 {
		return st.Muted.Render("none")
	}
	nameWidth := 0
	for _, f := range fields {
		nameWidth = max(nameWidth, ansi.StringWidth(f.name))
	}
	nameWidth = min(nameWidth, width/3)
	valueWidth := max(width-nameWidth-2, 1)
	lines := make([]string, len(fields))
	for j, f := range fields {
		name := st.Label.Render(lipgloss.NewStyle().Width(nameWidth).Render(ansi.Truncate(f.name, nameWidth, "…")))
		value := lipgloss.NewStyle().Width(valueWidth).Render(f.value)
		lines[j] = lipgloss.JoinHorizontal(lipgloss.Top, name, "  ", value)
	}
	return strings.Join(lines, "\n")
}

// responseView returns the response, sanitised and wrapped to width.
func responseView(st *common.Styles, response string, width int) string {
	if response == "" {
		return st.Muted.Render("(no response)")
	}
	return lipgloss.Wrap(textsafe.Text(response), width, "")
}
