package session

import (
	"github.com/rewardlens/rewardlens/follow"
	"github.com/rewardlens/rewardlens/internal/duplicates"
)

// checkIDs returns the status line's warning about trajectories of ts
// that repeat an earlier one's ID (duplicates.Warning), "" when there are
// none: the Trajectories tab shows both, and an export's records would be
// ambiguous to join by ID. For a session to be followed it also returns
// the IDs noted for the updates' repeats (follow.Repeats), noted in the
// pass that counts them; nil otherwise.
func checkIDs(ts *Trajectories, followed bool) (warning string, ids *follow.Repeats) {
	var (
		n     int
		first []string
	)
	if followed {
		ids = new(follow.Repeats)
		n, first = ids.Seed(ts.Len(), ts.At)
	} else {
		n, first = duplicates.Count(ts.Len(), func(i int) string { return ts.At(i).ID })
	}
	if n == 0 {
		return "", ids
	}
	return duplicates.Warning(n, first), ids
}
