package layouts

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestVerlSessionOf: a V1 key is taken apart as verl's
// key.rsplit("_", 2) with int(index) does; a key of another form is none.
func TestVerlSessionOf(t *testing.T) {
	for _, c := range []struct {
		key     string
		session string
		index   int
		ok      bool
	}{
		{"3f2a1c9b-aaaa-4bbb-8ccc-dddddddddddd_2_0", "3f2a1c9b-aaaa-4bbb-8ccc-dddddddddddd_2", 0, true},
		{"p_q_r_1_12", "p_q_r_1", 12, true},
		{"uid_0", "", 0, false},
		{"uid", "", 0, false},
		{"uid_0_x", "", 0, false},
		{"uid_0_-1", "", 0, false},
	} {
		session, index, ok := verlSessionOf(c.key)
		if session != c.session || index != c.index || ok != c.ok {
			t.Errorf("%q: %q %d %v, want %q %d %v", c.key, session, index, ok, c.session, c.index, c.ok)
		}
	}
}

// TestVerlSessionsFileReadAgain: a followed file read again (Forget, then
// its rows added) counts its sessions once, and those of its new content
// only: a session of two outputs that the file replaced with one no
// longer warned of, another file's session kept.
func TestVerlSessionsFileReadAgain(t *testing.T) {
	v := NewVerlSessions(setup.Config{From: string(engine.TrainerVerl), IDBy: verlUID})
	row := func(source, id string) scoring.Trajectory {
		t := scoring.Trajectory{ID: id, Batch: 1}
		t.Source = source
		return t
	}
	res := &engine.Result{Options: engine.Options{Method: engine.GRPO}, Ranking: &engine.Ranking{Batches: []engine.Batch{{Step: 1}}}}
	v.Add([]scoring.Trajectory{row("a", "u_0_0"), row("a", "u_0_1"), row("b", "w_0_0"), row("b", "w_0_1"), row("b", "w_0_2")})
	// b read again unchanged.
	v.Forget([]string{"b"})
	v.Add([]scoring.Trajectory{row("b", "w_0_0"), row("b", "w_0_1"), row("b", "w_0_2")})
	const both = `2 sessions with more than one output (step 1, session "u_0" of 2 outputs; step 1, session "w_0" of 3 outputs)`
	if w := v.warning(res, []int{0}); !strings.Contains(w, both) {
		t.Errorf("b read again unchanged: %q, want %q", w, both)
	}
	// a replaced: its session has one output now.
	v.Forget([]string{"a"})
	v.Add([]scoring.Trajectory{row("a", "u_0_0")})
	const onlyB = `1 session with more than one output (step 1, session "w_0" of 3 outputs)`
	if w := v.warning(res, []int{0}); !strings.Contains(w, onlyB) {
		t.Errorf("a replaced: %q, want %q", w, onlyB)
	}
}
