package session

import "github.com/rewardlens/rewardlens/internal/duplicates"

// duplicateWarning is the status line's warning about trajectories that
// repeat an earlier one's ID (duplicates.Warning), "" when there are none:
// the Trajectories tab shows both, and an export's records would be
// ambiguous to join by ID.
func duplicateWarning(ts *Trajectories) string {
	n, first := duplicates.Count(ts.Len(), func(i int) string { return ts.At(i).ID })
	if n == 0 {
		return ""
	}
	return duplicates.Warning(n, first)
}
