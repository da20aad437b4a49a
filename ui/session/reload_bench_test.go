package session

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// BenchmarkReloadRows1M times what a reload does to the rows on the event
// loop, 2^20 lean rows as 8 files, the fourth read again, the same rows:
// rows, the rows deleted and appended with what Find notes of them;
// reference, the same without (Trajectories.DeleteFunc and Append).
func BenchmarkReloadRows1M(b *testing.B) {
	const n, files = 1 << 20, 8
	per := n / files
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i].ID = fmt.Sprint(i)
		ts[i].Source, ts[i].Line, ts[i].Offset = fmt.Sprint("f", i/per), i%per+1, int64(i%per)*64
	}
	reread := slices.Clone(ts[3*per : 4*per])
	b.Run("rows", func(b *testing.B) {
		s := &Session{Trajectories: trajectoriesOf(ts)}
		for range b.N {
			reloadRows(s, reread)
		}
	})
	b.Run("reference", func(b *testing.B) {
		s := &Session{Trajectories: trajectoriesOf(ts)}
		for range b.N {
			s.Trajectories.DeleteFunc(func(t *scoring.Trajectory) bool { return t.Source == "f3" })
			s.Trajectories.Append(reread...)
		}
	})
}

// reloadRows does to s's rows what ApplyUpdate does of a reload of f3
// that read reread.
func reloadRows(s *Session, reread []scoring.Trajectory) {
	s.deleteReloaded([]string{"f3"})
	s.Trajectories.Append(reread...)
	s.serials.noteRead(reread, s.Trajectories.Len())
}
