package session

import (
	"fmt"

	"github.com/rewardlens/rewardlens/internal/duplicates"
)

// duplicateWarning is the status line's warning about trajectories that
// repeat an earlier one's ID, "" when there are none: the Trajectories tab
// shows both, and an export's records would be ambiguous to join by ID.
func duplicateWarning(ts *Trajectories) string {
	n, first := duplicates.Count(ts.Len(), func(i int) string { return ts.At(i).ID })
	if n == 0 {
		return ""
	}
	noun := "trajectories"
	if n == 1 {
		noun = "trajectory"
	}
	return fmt.Sprintf("%d %s with a duplicate ID (%s)", n, noun, duplicates.Named(first))
}
