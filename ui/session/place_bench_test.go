package session_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// BenchmarkFind1M times Session.Find of a trajectory selected before
// follow mode read a file again, on the run of BenchmarkFollow1M (2^20
// trajectories) held as 8 files, the fourth read again: one of a later
// file (moved up past the rows read again), one of the file read again;
// scan is the reference, the pass over the run that finds one by where it
// was read.
func BenchmarkFind1M(b *testing.B) {
	ts, cfg := uitest.PromptRun()
	const files = 8
	per := len(ts) / files
	for i := range ts {
		ts[i].Source, ts[i].Line, ts[i].Offset = fmt.Sprint("f", i/per), i%per+1, int64(i%per)*64
	}
	c, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	reread := slices.Clone(ts[3*per : 4*per])
	s := session.NewSession("bench", ts, c)
	ts = nil
	places := map[string]session.Place{"moved": s.PlaceOf(5*per + per/2), "read again": s.PlaceOf(3*per + per/2)}
	l := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	s.ApplyUpdate(l, loaders.Update{Reloaded: []string{"f3"}, Trajectories: reread})
	for _, name := range []string{"moved", "read again"} {
		p := places[name]
		want := scanFor(s, p)
		if got := s.Find(p); got != want || want < 0 {
			b.Fatalf("%s: found at %d, the scan at %d", name, got, want)
		}
		b.Run(name+"/find", func(b *testing.B) {
			for range b.N {
				s.Find(p)
			}
		})
		b.Run(name+"/scan", func(b *testing.B) {
			for range b.N {
				scanFor(s, p)
			}
		})
	}
}

// scanFor returns the index of the trajectory read where p was, by a
// pass over the run.
func scanFor(s *session.Session, p session.Place) int {
	for i, t := range s.Trajectories.All() {
		if t.ID == p.ID && t.Source == p.Source && t.Line == p.Line && t.Offset == p.Offset {
			return i
		}
	}
	return -1
}
