package engine

import (
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// InvalidCause is what a cause of invalidity (Evaluation.Causes) is of,
// as CauseOf reads it from the table of the causes the evaluation can
// give, each built from its subject and error: no caller parses a cause.
type InvalidCause struct {
	// Subject is what is not valid: an objective's name, a constraint's
	// or gate's Subject, or "score" when Overflow.
	Subject string
	// Objective is Subject's index in Objectives, -1 when the cause is
	// not an objective's.
	Objective int
	// Err is the error, one of scoring.CauseErrors; scoring.ErrInf or
	// ErrNaN when Overflow.
	Err error
	// Overflow says that the objectives are finite but their weighted sum
	// is not (ScoreOverflowCause), summed in float32 when In32.
	Overflow, In32 bool
}

// Setting reports whether c's Subject is one of the evaluation's
// Constraints or Gates: a cause of a subject that is neither an
// objective nor the weighted score (Overflow). A setting is evaluated once
// the objectives were, so that a trajectory of that cause has all its
// objectives' values.
func (c InvalidCause) Setting() bool { return c.Subject != "" && c.Objective < 0 && !c.Overflow }

// CauseOf returns what cause, one of ev's Causes, is of; false when it is
// none the evaluation's objectives, constraints, gates or weighted score
// give (a scorer's own error). An objective's cause wins over a
// constraint's or gate's of the same text, and both over an overflow.
func (ev *Evaluation) CauseOf(cause string) (InvalidCause, bool) {
	ev.causesOnce.Do(func() { ev.causeTable = ev.buildCauseTable() })
	c, ok := ev.causeTable[cause]
	return c, ok
}

// buildCauseTable makes the text of every cause ev can give, as the
// scorer's InvalidError writes it, keyed to what it is of.
func (ev *Evaluation) buildCauseTable() map[string]InvalidCause {
	errs := scoring.CauseErrors()
	table := make(map[string]InvalidCause, len(scoreOverflowCauses)+(len(ev.Constraints)+len(ev.Gates)+len(ev.Objectives))*len(errs))
	for o, text := range scoreOverflowCauses {
		table[text] = InvalidCause{Subject: "score", Objective: -1, Err: o.err, Overflow: true, In32: o.in32}
	}
	add := func(subject string, objective int) {
		for _, err := range errs {
			text := (&scoring.InvalidError{Objective: subject, Err: err}).Error()
			table[text] = InvalidCause{Subject: subject, Objective: objective, Err: err}
		}
	}
	for _, d := range ev.Constraints {
		add(d.Subject(), -1)
	}
	for _, d := range ev.Gates {
		add(d.Subject(), -1)
	}
	for k, o := range ev.Objectives {
		add(o.Name, k)
	}
	return table
}
