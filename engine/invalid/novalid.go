package invalid

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/suggest"
)

// NoValidError is the error of an input none of whose trajectories is
// valid: every reward would be a meaningless 0, so that nothing should be
// written as if it were a result.
type NoValidError struct {
	// Trajectories is how many there are, all invalid.
	Trajectories int
	// Causes are the distinct causes, the most frequent first.
	Causes []Cause
	// Fields are the field names the records were seen to have.
	Fields []string
}

// Cause is one cause of a NoValidError.
type Cause struct {
	// Objective is the objective that is not a finite number; "" when
	// the cause is not one objective's (the weighted score overflows, or
	// a scorer's own error): Text then says it all.
	Objective string
	// Expr is the objective's expression, "" when it has none of its own.
	Expr string
	// Err is one of ErrMissing, ErrNotNumber, ErrNaN, ErrInf, ErrEval or
	// ErrBudget,
	// nil when the cause is not one of them.
	Err error
	// Text is the cause as counted (Evaluation.Causes).
	Text  string
	Count int
	// Reason, when Err is ErrEval, is why the expression failed in the
	// first trajectory of the cause, when ErrNotNumber what the value was
	// there (Evaluation.EvalReason), else "".
	Reason string
	// Field is the field the expression reads when it reads one metadata
	// value (or bare name) and nothing else, else "".
	Field string
	// Setting is the constraint or gate the cause is of, as it names it
	// ("constraint safety >= 0.8", "gate length: accuracy == 1"); "" when
	// the cause is not one's. Its Unseen and Suggestions are set the same
	// way as an objective's, the names suggested among the fields and the
	// objectives.
	Setting string
	// Unseen are the fields the expression reads that the field names
	// seen (the first records) lack, and Suggestions, per unseen field,
	// the close names that were seen, nearest first. They are set on an
	// objective's most frequent cause only, and only when none of its
	// causes shows that the value was there (not a number, NaN,
	// infinite).
	Unseen      []string
	Suggestions [][]string
}

// maxCausesShown is how many causes a NoValidError's message details.
const maxCausesShown = 3

func (e *NoValidError) Error() string {
	var b strings.Builder
	if e.Trajectories == 1 {
		b.WriteString("the one trajectory is invalid")
	} else {
		fmt.Fprintf(&b, "all %d trajectories are invalid", e.Trajectories)
	}
	// The causes of one objective go together, after its name.
	var subjects []string
	whats := map[string][]string{}
	for _, c := range e.Causes[:min(len(e.Causes), maxCausesShown)] {
		subject, what := c.message(e.Trajectories, e.Fields)
		if whats[subject] == nil {
			subjects = append(subjects, subject)
		}
		whats[subject] = append(whats[subject], what)
	}
	for i, subject := range subjects {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; also ")
		}
		if subject != "" {
			b.WriteString(subject + ": ")
		}
		b.WriteString(strings.Join(whats[subject], ", "))
	}
	if n := len(e.Causes) - maxCausesShown; n > 0 {
		noun := "causes"
		if n == 1 {
			noun = "cause"
		}
		fmt.Fprintf(&b, "; and %d other %s", n, noun)
	}
	return b.String()
}

// message says what the cause is, for n trajectories in all, the records
// having fields: the subject "objective acc = metadata.acuracy" ("" when
// the cause is not an objective's), and what is wrong with it, "no
// trajectory has field acuracy; did you mean accuracy?".
func (c Cause) message(n int, fields []string) (subject, what string) {
	if c.Setting != "" {
		what = c.Err.Error() + " " + inTrajectories(c.Count, n) + c.reason()
		for k, field := range c.Unseen {
			what += "; the first record of each input has no field " + field + suggestion(c.Suggestions[k], fields)
		}
		return c.Setting, what
	}
	if c.Objective == "" {
		return "", fmt.Sprintf("%s (%d)", c.Text, c.Count)
	}
	subject = "objective " + c.Objective
	if c.Expr != "" {
		subject += " = " + c.Expr
	}
	where := inTrajectories(c.Count, n)
	unseen, suggestions := c.Unseen, c.Suggestions
	everywhere := errors.Is(c.Err, scoring.ErrMissing) && c.Count == n && c.Field != ""
	switch k := slices.Index(unseen, c.Field); {
	case everywhere && k >= 0:
		// Absent or null in every trajectory, and absent in the first
		// records: the name is wrong.
		what = "no trajectory has field " + c.Field + suggestion(suggestions[k], fields)
		unseen = slices.Delete(slices.Clone(unseen), k, k+1)
		suggestions = slices.Delete(slices.Clone(suggestions), k, k+1)
	case everywhere:
		what = c.Field + " is null or absent " + where
	case errors.Is(c.Err, scoring.ErrMissing):
		what = "absent or null " + where
	case errors.Is(c.Err, scoring.ErrNotNumber):
		what = "not a number (a string, a list or a map) " + where + c.reason()
	default:
		what = c.Err.Error() + " " + where + c.reason()
	}
	for k, field := range unseen {
		what += "; the first record of each input has no field " + field + suggestion(suggestions[k], fields)
	}
	return subject, what
}

// reason is " (the first: REASON)" when c has a Reason, else "".
func (c Cause) reason() string {
	if c.Reason == "" {
		return ""
	}
	return " (the first: " + c.Reason + ")"
}

// inTrajectories says where a cause counted count times of n is: "in 12
// trajectories", "in 1 trajectory", "in every trajectory".
func inTrajectories(count, n int) string {
	switch count {
	case 1:
		return "in 1 trajectory"
	case n:
		return "in every trajectory"
	}
	return fmt.Sprintf("in %d trajectories", count)
}

// suggestion is "; did you mean NAME?" when names holds close names, else
// "; the first records have A, B, C" listing the fields that are not the
// trajectory's own (metadata keys, mostly).
func suggestion(names, fields []string) string {
	if len(names) > 0 {
		return suggest.DidYouMean(names)
	}
	var own []string
	for _, f := range fields {
		if !scoring.IsTrajectoryField(f) {
			own = append(own, f)
		}
	}
	return suggest.Fields("the first records have", own)
}

// NoValid returns a *NoValidError when res holds trajectories and none is
// valid, else nil: one the group filter dropped
// (engine.Evaluation.Dropped) was valid data. s is the scorer res was computed with; fields are the
// field names the records were seen to have (FieldNames of some of them):
// an objective that reads a field not among them gets the nearest ones as
// suggestions. With fields nil, no field is said to be absent.
//
// With nansum, where a missing objective counts 0, it returns an
// *AbsentFieldError first when an objective was missing in every
// trajectory and reads a field the records were not seen to have: a
// misspelt name would otherwise be a silent 0 everywhere.
func NoValid(res *engine.Result, s scoring.Scorer, fields []string) error {
	n := res.Evaluation.N()
	if n == 0 {
		return nil
	}
	if err := absentFields(s, n, fields); err != nil {
		return err
	}
	if slices.Contains(res.Evaluation.Valid, true) || slices.Contains(res.Evaluation.Dropped, true) {
		return nil
	}
	counts := res.Evaluation.InvalidCounts()
	texts := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
	e := &NoValidError{Trajectories: n, Fields: fields}
	seen := map[string]bool{}
	for _, f := range fields {
		seen[f] = true
	}
	// valued holds the objectives some of whose values were there, but no
	// finite number: their fields exist, whatever the first records say.
	valued := map[string]bool{}
	of := make([]engine.InvalidCause, len(texts))
	for i, text := range texts {
		c := Cause{Text: text, Count: counts[text], Reason: res.Evaluation.EvalReason(text)}
		of[i] = causeOf(res.Evaluation, text)
		if of[i].Objective >= 0 || of[i].Overflow {
			c.Objective, c.Err = of[i].Subject, of[i].Err
		}
		if c.Err != nil && !errors.Is(c.Err, scoring.ErrMissing) && !errors.Is(c.Err, scoring.ErrEval) {
			valued[c.Objective] = true
		}
		e.Causes = append(e.Causes, c)
	}
	var settings []scoring.SettingFields
	if _, st := scoring.Unstructured(s); st != nil {
		settings = st.FieldsRead()
	}
	hinted := map[string]bool{}
	for i := range e.Causes {
		c := &e.Causes[i]
		k := of[i].Objective
		if k < 0 {
			if of[i].Setting() && settingCause(c, of[i], settings, res.Evaluation.Objectives, fields, seen) {
				continue
			}
			if of[i].Overflow {
				// The objectives are finite, their weighted sum is not.
				sum := "weighted sum"
				if of[i].In32 {
					sum = "float32 weighted sum"
				}
				c.Objective, c.Text = "", "the weighted score (the objectives' "+sum+") is "+c.Err.Error()
			}
			continue
		}
		x := scoring.ExpressionOf(s, k)
		if x == nil {
			continue
		}
		c.Expr = x.Source
		c.Field = x.Field()
		if fields == nil || valued[c.Objective] || hinted[c.Objective] {
			continue
		}
		hinted[c.Objective] = true
		for _, f := range x.FieldsRead() {
			if !seen[f] {
				c.Unseen = append(c.Unseen, f)
				c.Suggestions = append(c.Suggestions, suggest.Near(f, fields))
			}
		}
	}
	return e
}

// settingCause reports whether cause, c's, is that of one of settings
// (a constraint or a gate) with one of causeErrors. Then it sets c's
// Setting and Err, and, when Err says the value was absent or could not be
// evaluated (a field read that is not there), the fields it reads that
// are not among seen (fields nil: none) with the nearest fields and
// objectives' names.
func settingCause(c *Cause, cause engine.InvalidCause, settings []scoring.SettingFields, objectives []scoring.Objective, fields []string, seen map[string]bool) bool {
	if !slices.Contains(causeErrors, cause.Err) {
		return false
	}
	for _, setting := range settings {
		if setting.Subject != cause.Subject {
			continue
		}
		c.Setting, c.Err = setting.Subject, cause.Err
		if fields == nil || !(errors.Is(c.Err, scoring.ErrMissing) || errors.Is(c.Err, scoring.ErrEval)) {
			return true
		}
		names := slices.Clone(fields)
		for _, o := range objectives {
			names = append(names, o.Name)
		}
		for _, f := range setting.Fields {
			if !seen[f] {
				c.Unseen = append(c.Unseen, f)
				c.Suggestions = append(c.Suggestions, suggest.Near(f, names))
			}
		}
		return true
	}
	return false
}

// AbsentFieldError is NoValid's error for the objectives that, with
// nansum, were missing in every one of Trajectories and read a field
// that the records (Fields, as NoValid was given them) were not seen to
// have. A field there, null in every record (a TRL reward column never
// logged), is not absent.
type AbsentFieldError struct {
	Trajectories int
	Fields       []string
	Causes       []Cause
}

func (e *AbsentFieldError) Error() string {
	parts := make([]string, len(e.Causes))
	for i, c := range e.Causes {
		subject, what := c.message(e.Trajectories, e.Fields)
		parts[i] = subject + ": " + what
	}
	return strings.Join(parts, "; ") + " (nansum would count it 0 in every trajectory)"
}

// absentFields returns the *AbsentFieldError of the objectives of s, a
// ParetoScorer with nansum that evaluated n trajectories, that were
// missing in all of them and read a field not among fields; nil when
// there are none, or fields is nil.
func absentFields(s scoring.Scorer, n int, fields []string) error {
	p, ok := s.(*scoring.ParetoScorer)
	if !ok || fields == nil {
		return nil
	}
	never := p.NeverValued()
	if len(never) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		seen[f] = true
	}
	var causes []Cause
	for _, k := range never {
		x := scoring.ExpressionOf(p, k)
		c := Cause{Objective: p.Objectives()[k].Name, Expr: x.Source, Err: scoring.ErrMissing, Count: n}
		c.Field = x.Field()
		for _, f := range x.FieldsRead() {
			if !seen[f] {
				c.Unseen = append(c.Unseen, f)
				c.Suggestions = append(c.Suggestions, suggest.Near(f, fields))
			}
		}
		if len(c.Unseen) > 0 {
			if causes = append(causes, c); len(causes) == maxCausesShown {
				break
			}
		}
	}
	if causes == nil {
		return nil
	}
	return &AbsentFieldError{Trajectories: n, Fields: fields, Causes: causes}
}

// causeErrors are the errors a counted cause can end with.
var causeErrors = []error{scoring.ErrMissing, scoring.ErrNotNumber, scoring.ErrNaN, scoring.ErrInf, scoring.ErrEval, scoring.ErrBudget}

// causeOf is ev.CauseOf(text), with Objective -1 when text is none of
// the causes CauseOf knows (a scorer's own error).
func causeOf(ev *engine.Evaluation, text string) engine.InvalidCause {
	c, ok := ev.CauseOf(text)
	if !ok {
		return engine.InvalidCause{Objective: -1}
	}
	return c
}
