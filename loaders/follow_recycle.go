package loaders

import (
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// partStore recycles the arrays of the parts a followed file's growth is
// read in, for a consumer that gives them back (Update.Recycle) once it
// has taken what it keeps, as Stream recycles its chunks: each part's
// trajectories were otherwise built in fresh memory, page by page. It is
// shared by the follower's goroutine, which reads, and the consumer's,
// which gives back. Only arrays read from it are given back, so it holds
// at most those of the parts in flight.
type partStore struct {
	arrays input.FreeList[[]scoring.Trajectory]
	picks  input.PickedStore
}

// take returns an empty array to read a part into: a recycled one, or nil
// (also from the nil *partStore).
func (s *partStore) take() []scoring.Trajectory {
	if s == nil {
		return nil
	}
	ts, _ := s.arrays.Pop()
	return ts
}

// give stores the array ts and the picked values' arrays picked, which no
// trajectory still in use points into.
func (s *partStore) give(ts []scoring.Trajectory, picked [][]scoring.PickedValue) {
	clear(ts) // the trajectories' strings and arrays are not held
	s.arrays.Put(ts[:0])
	s.picks.Give(picked)
}

// Recycle gives the arrays of u's trajectories back to the follower, for
// the lines it reads next, and sets u.Trajectories to nil. A consumer
// calls it once it is done with u's trajectories, having kept none of
// them, nor their Picked values, Metadata or Response (which it may have
// copied): the same terms as FollowOptions.Each's. Without it the arrays
// are left to the collector, as they are for a consumer that keeps the
// trajectories.
func (u *Update) Recycle() {
	if u.store != nil && cap(u.Trajectories) > 0 {
		u.store.give(u.Trajectories, u.picked)
	}
	u.Trajectories, u.picked = nil, nil
}
