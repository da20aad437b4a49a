// Package trajectory is the view of one trajectory whole, which the
// Groups, Pareto and Trajectories tabs open: its fields, what the engine
// computed for it, its metadata, prompt and response.
package trajectory

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// field is one name/value line of the trajectory view; both are safe to
// print.
type field struct{ name, value string }

// Opened is a trajectory shown whole.
type Opened struct {
	I    int                // its index in the session
	Full scoring.Trajectory // with its metadata and response, unless err
	err  error              // why they could not be read again
	// why is why its objective's expression failed, when that made it
	// invalid (Session.EvalReason), computed once when opened.
	why string
	// reading says that it is read again off the event loop (Begin):
	// Full is the lean trajectory until then.
	reading bool
	// at is where the trajectory was when opened (Find).
	at session.Place
}

// Begin opens trajectory i of s without reading it on the event loop:
// one s keeps whole as it is (read is nil); a lean one marked as being
// read, and read, the job that reads it again from its file (one seek and
// one record) and scores it again, an edited record said changed, bound
// to s as it is now (Session.RereadChecked), whose Opened replaces o when
// it lands.
func Begin(s *session.Session, i int) (o Opened, read func() Opened) {
	ev := s.Result.Evaluation
	var why func(*scoring.Trajectory) string
	if !ev.Valid[i] {
		why = s.EvalReasoner(i)
	}
	if !s.Trajectories.At(i).Lean {
		o := Opened{I: i, Full: *s.Trajectories.At(i), at: s.PlaceOf(i)}
		if why != nil {
			o.why = why(&o.Full)
		}
		return o, nil
	}
	// A copy: a followed update may move the session's trajectories
	// while the job reads.
	lean := *s.Trajectories.At(i)
	tr := &lean
	at := s.PlaceOf(i)
	reread := s.RereadChecked(nil)
	read = func() Opened {
		o := Opened{I: i, Full: *tr, at: at}
		if full, err := reread(i, tr); err != nil {
			o.err = err
		} else {
			o.Full = full
			if why != nil {
				o.why = why(&o.Full)
			}
		}
		return o
	}
	return Opened{I: i, Full: *tr, reading: true, at: at}, read
}

// ReadingText stands for the metadata and response of a trajectory being
// read again from its file off the event loop (Begin).
const ReadingText = "reading it again from its file…"

// Detail returns what is shown of the opened trajectory: its fields (and
// how its completion ended, FinishOf), what the engine computed for it,
// its metadata by sorted key and its whole response, wrapped to width.
func Detail(c *common.Common, o *Opened, width int) string {
	st := c.Styles
	i, tr := o.I, &o.Full
	res := c.Session.Result
	input := []field{
		{"id", textsafe.Line(tr.ID)},
		{"batch", strconv.FormatInt(tr.Batch, 10)},
		{"group", textsafe.Line(tr.Group)},
		{"step_count", strconv.FormatInt(tr.StepCount, 10)},
		{"done", strconv.FormatBool(tr.Done)},
	}
	// How the completion ended, beside done (which a record without it
	// leaves true): a completion cut at the length limit is one a trainer
	// may mask.
	if f, ok := FinishOf(tr.Metadata); ok {
		value := textsafe.Line(f.Text)
		if f.Cut {
			value += " " + st.Warning.Render("(cut at the length limit)")
		}
		input = append(input, field{textsafe.Line(f.Field), value})
	}
	input = append(input, field{"read from", textsafe.Line(tr.Where())})
	computed := []field{{"valid", "yes"}}
	if !res.Evaluation.Valid[i] {
		why := c.Session.NotValidBecause(i)
		if o.why != "" {
			why += ": " + o.why
		}
		computed[0].value = st.Invalid.Render("no: " + textsafe.Line(why))
	}
	// The score, rank and crowding as compute writes them: of a
	// trajectory the group filter dropped, those of the run without it,
	// said so, or pending until computed (session.WrittenJob).
	score, rank, ok := c.Session.WrittenScoreRank(i)
	crowding, _ := c.Session.WrittenCrowding(i)
	scoreText, rankText, crowdingText := common.FormatValue(score), common.RankText(rank), common.FormatValue(crowding)
	switch {
	case !ok:
		scoreText = common.PendingValue + st.Muted.Render(" (computing it without the group filter)")
		rankText, crowdingText = common.PendingValue, common.PendingValue
	case c.Session.Dropped(i):
		scoreText += st.Muted.Render(" (without the group filter, as compute writes it)")
	}
	computed = append(computed,
		field{"score", scoreText},
		field{"reward", common.FormatValue(res.ShownReward(i))})
	// B's reward beside A's, on its line, what the Compare tab compares
	// (and the Groups and Trajectories tabs show in a column).
	if r, ok := c.Session.RewardB(i); ok {
		computed[len(computed)-1].value += st.Muted.Render(" · "+textsafe.Line(string(c.Session.CompareMethod))+" (B) ") + common.FormatValue(r)
	}
	computed = append(computed,
		field{"pareto_rank", rankText},
		field{"crowding", crowdingText})
	if ev := res.Evaluation; ev.HasConstraints() && ev.Valid[i] {
		feasible := "yes"
		if !ev.Feasible(i) {
			feasible = st.Warning.Render("no")
		}
		computed = append(computed, field{"feasible", feasible}, field{"violation", common.FormatValue(ev.ViolationOf(i))})
	}
	for k, o := range res.Objectives {
		computed = append(computed, field{common.ObjectiveName(o.Name), common.ObjectiveValue(res.Evaluation, i, k)})
	}
	sections := []string{
		fieldsView(st, input, width),
		st.Title.Render("computed ("+string(res.Options.Method)+")") + "\n" + fieldsView(st, computed, width),
	}
	return strings.Join(append(sections, bodyView(st, c.Session, o, width)...), "\n\n")
}

// bodyView returns the sections of o's metadata, prompt (in a trainer's
// layout) and response, or, when they could not be read again, the error
// in their place. The layout's prompt and response fields have their own
// sections, whole, not a line among the metadata.
func bodyView(st *common.Styles, s *session.Session, o *Opened, width int) []string {
	if o.reading {
		return []string{st.Title.Render("metadata and response") + "\n" + st.Muted.Render(ReadingText)}
	}
	if o.err != nil {
		msg := lipgloss.Wrap(textsafe.Line(o.err.Error()), width, "")
		return []string{st.Title.Render("metadata and response") + "\n" + st.Invalid.Render(msg)}
	}
	var own []string
	for _, f := range []string{s.Config.PromptField, s.Config.ResponseField} {
		if f != "" {
			own = append(own, f)
		}
	}
	sections := []string{st.Title.Render("metadata") + "\n" + fieldsView(st, metadataFields(o.Full.Metadata, own), width)}
	if s.Config.PromptField != "" {
		sections = append(sections, st.Title.Render("prompt")+"\n"+textView(st, s.PromptText(&o.Full), "(no prompt)", width))
	}
	return append(sections, st.Title.Render("response")+"\n"+textView(st, s.ResponseText(&o.Full), "(no response)", width))
}

// metadataFields lists metadata by sorted key, but the keys left out.
func metadataFields(md map[string]any, leftOut []string) []field {
	keys := make([]string, 0, len(md))
	for k := range md {
		if !slices.Contains(leftOut, k) {
			keys = append(keys, k)
		}
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

// textView returns text from the data, sanitised and wrapped to width, or
// none, muted, when it is empty.
func textView(st *common.Styles, text, none string, width int) string {
	if text == "" {
		return st.Muted.Render(none)
	}
	return lipgloss.Wrap(textsafe.Text(text), width, "")
}
