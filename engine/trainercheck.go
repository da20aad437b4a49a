package engine

import "fmt"

// maxUnequalStepsNamed is how many batches of unequal groups CheckTrainer
// describes.
const maxUnequalStepsNamed = 5

// TrainerCheck is what CheckTrainer found.
type TrainerCheck struct {
	// Logged compares the trainer-style rewards with the logged
	// advantages (nil without them).
	Logged *LoggedMatch
	// Unequal are the batches whose groups are not all of one size
	// (checked with RewardComputer.EqualGroups only).
	Unequal []UnequalGroups
	// Options are the options to compute with: the computer's, or with
	// RewardComputer.MatchLogged those that reproduce the logged advantage.
	Options Options
	// Notes say what was found, each a line; a warning starts with
	// "warning: ".
	Notes []string
}

// CheckTrainer checks ev, evaluated by c, against what its trainer did:
// the trainer-style rewards against the logged advantages, when ev has
// them (MatchLogged of the computer's options), and, with c.EqualGroups,
// the groups' sizes. With c.MatchLogged, the options found are those to
// compute with.
func (c *RewardComputer) CheckTrainer(ev *Evaluation) TrainerCheck {
	check := TrainerCheck{Options: c.Options}
	if ev.Logged != nil || c.MatchLogged {
		check.Logged = ev.MatchLogged(c.Options)
	}
	if c.MatchLogged {
		var note string
		check.Options, note = check.Logged.Applied(c.Options)
		check.Notes = append(check.Notes, note)
	} else if check.Logged != nil {
		if w := check.Logged.Warning(); w != "" {
			check.Notes = append(check.Notes, "warning: "+w)
		}
	}
	if c.EqualGroups {
		check.Unequal = ev.UnequalGroups()
		for _, u := range check.Unequal[:min(len(check.Unequal), maxUnequalStepsNamed)] {
			check.Notes = append(check.Notes, "warning: "+u.String())
		}
		if n := len(check.Unequal) - maxUnequalStepsNamed; n > 0 {
			check.Notes = append(check.Notes, fmt.Sprintf("warning: and %d more steps with groups of unequal size", n))
		}
	}
	return check
}
