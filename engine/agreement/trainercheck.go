// Package agreement checks a trainer's output against rewardlens's: the
// trainer-style rewards against the advantages the trainer logged
// (CompareLogged), the table of the trainers' settings tried to reproduce
// them (MatchLogged), the groups' sizes, and the groups whose rows answer
// more than one prompt (MixedPrompts); CheckTrainer runs what a
// computer's config asks for. It also compares two methods' rewards, or a
// method's with the logged advantages, by rank (CompareRewards,
// CompareWithLogged), or in steps for the dashboard's Compare tab, which
// shows the values before their ranks (Gather or GatherLogged, then
// Gathered.Ranked, then CompareSides). NotNumberWarning and
// NonFiniteWarning say which logged advantages no reward is compared with.
package agreement

import (
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/english"
)

// maxUnequalStepsNamed is how many batches of unequal groups CheckTrainer
// describes.
const maxUnequalStepsNamed = 5

// TrainerCheck is what CheckTrainer found.
type TrainerCheck struct {
	// Logged compares the trainer-style rewards with the logged
	// advantages (nil without them): under the trainer-style options of
	// those given, or, when --match-logged found settings that reproduce
	// them, under those (Options).
	Logged *Match
	// Unequal are the batches whose groups are not all of one size
	// (checked with engine.RewardComputer.EqualGroups only).
	Unequal []UnequalGroups
	// Options are the options to compute with: the computer's, or with
	// engine.RewardComputer.MatchLogged those that reproduce the logged advantage.
	Options engine.Options
	// Notes say what was found, each a line.
	Notes []Note
	// LoggedNote is Logged's warning, the text of a warning of Notes (""
	// for none), for a caller that says it again as the settings change
	// (MatchLoggedFrom).
	LoggedNote string
	// unreproduced is why --match-logged found no setting that
	// reproduces the logged advantage (Match.unreproduced), said by a
	// note of Notes (unreproducedText); "" for none.
	unreproduced string
	// unequalFrom is the index in Notes of the first note of Unequal
	// (unequalNotes), which come last.
	unequalFrom int
}

// Note is a line of what CheckTrainer found: Text, and whether it warns.
// The severity is kept apart from the text so that each caller says it
// its own way: the CLI prints "warning: " before a warning's text, the
// dashboard's status line, whose every entry warns, the text alone.
type Note struct {
	Text    string
	Warning bool
}

// CheckTrainer checks ev, evaluated by c, against what its trainer did:
// the trainer-style rewards against the logged advantages, when ev has
// them (MatchLogged of the computer's options), and, with c.EqualGroups,
// the groups' sizes. With c.MatchLogged, the options found are those to
// compute with. The group c.RowCap says a cap cut is left out of the
// weights fitted (MatchLoggedFrom).
func CheckTrainer(c *engine.RewardComputer, ev *engine.Evaluation) TrainerCheck {
	check := TrainerCheck{Options: c.Options}
	if ev.Logged != nil || c.MatchLogged {
		check.Logged = MatchLoggedFrom(ev, c.Options, c.Layout, c.RowCap, c.LinesLeftOut)
	}
	if c.MatchLogged {
		var note Note
		check.Options, note = check.Logged.applied(c.Options)
		check.Notes = append(check.Notes, note)
		check.unreproduced = check.Logged.unreproduced()
		check.Logged = check.Logged.computedWith()
	} else if check.Logged != nil {
		if w := check.Logged.Warning(); w != "" {
			check.LoggedNote = w
			check.Notes = append(check.Notes, Note{Text: w, Warning: true})
		}
	}
	if check.Logged != nil {
		if note := Float32CoarseNote(check.Logged.Base.Overall); note != "" {
			check.Notes = append(check.Notes, Note{Text: note})
		}
	}
	if c.EqualGroups {
		check.Unequal = unequalGroupsOf(ev)
		check.unequalFrom = len(check.Notes)
		check.Notes = append(check.Notes, unequalNotes(check.Unequal)...)
	}
	return check
}

// unequalNotes are the notes that say unequal: the first
// maxUnequalStepsNamed batches, and how many more.
func unequalNotes(unequal []UnequalGroups) []Note {
	var notes []Note
	for _, u := range unequal[:min(len(unequal), maxUnequalStepsNamed)] {
		notes = append(notes, Note{Text: u.String(), Warning: true})
	}
	if n := len(unequal) - maxUnequalStepsNamed; n > 0 {
		notes = append(notes, Note{Text: fmt.Sprintf("and %d more %s with groups of unequal size", n, english.Plural(n, "step")), Warning: true})
	}
	return notes
}

// leaveOutCutGroup leaves c, the group a cap on the rows read cut
// (CutGroupOf), out of check's batches of unequal groups, and their
// notes: its batch is described over its other groups, its note saying
// so, or not at all when they are all of one size. The cap made that
// group short, not the trainer. check is as CheckTrainer returned it.
func (check *TrainerCheck) leaveOutCutGroup(c *CutGroup) {
	at := slices.IndexFunc(check.Unequal, func(u UnequalGroups) bool { return u.Step == c.Step })
	if at < 0 {
		return
	}
	others := slices.DeleteFunc(slices.Clone(check.Unequal[at].groups), func(g engine.Group) bool { return g.Key == c.Group.Key })
	notes := check.Notes[:check.unequalFrom]
	unequal := slices.Clone(check.Unequal)
	if u, ok := UnequalGroupsOfBatch(c.Step, others); ok {
		u.leftOut = c.Name()
		unequal[at] = u
	} else {
		unequal = slices.Delete(unequal, at, at+1)
	}
	check.Unequal = unequal
	check.Notes = append(slices.Clone(notes), unequalNotes(unequal)...)
}
