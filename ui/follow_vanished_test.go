package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestFollowVanishedUnreadSaidOnce: a followed file that could not be
// read, then went (one update: Gone and its loaders.VanishedError), is
// said by its error alone, not as gone with what was loaded from it
// staying: nothing was.
func TestFollowVanishedUnreadSaidOnce(t *testing.T) {
	m, _ := newLiveModel(t)
	p := "run/rollouts_rank_003.jsonl"
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: p, Err: errors.New("open " + p + ": permission denied")}}}, true})
	m.Update(liveMsg{loaders.Update{Gone: []string{p}, Errs: []loaders.FileError{{Path: p, Err: &loaders.VanishedError{Path: p}}}}, true})
	m.Settle()
	var said []string
	for _, w := range m.status.Warnings() {
		if strings.Contains(w, p) {
			said = append(said, w)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "appeared and went before it was read") {
		t.Errorf("%s said %q, want once, as gone before it was read", p, said)
	}
}
