package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestFollowWarnsOfRepeatedIDs: rows that arrive while following and
// repeat the IDs of an earlier step (a resumed run re-logging step 0)
// are warned of in the status line, as opening the same file warns, naming
// them and the step, counted across updates; an update of new IDs leaves
// the warning as it was, and the repeats are still computed.
func TestFollowWarnsOfRepeatedIDs(t *testing.T) {
	step := func(step, value int) string {
		var b strings.Builder
		for c := range 4 {
			fmt.Fprintf(&b, `{"id":"s%d-c%d","batch":%d,"group":"g","metadata":{"a":%d,"b":1}}`+"\n", step, c, step, (value+c)%2)
		}
		return b.String()
	}
	s := uitest.FollowedTextSession(t, step(0, 0)+step(1, 0))
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m.Settle()
	warnings := func() string { return strings.Join(m.status.Warnings(), "\n") }
	if strings.Contains(warnings(), "repeat") {
		t.Fatalf("warned before any repeat:\n%s", warnings())
	}
	followLines(t, m, step(0, 1))
	first := `following: 4 trajectories repeat an earlier one's ID ("s0-c0", "s0-c1", "s0-c2", "s0-c3") at step 0; each is computed`
	if w := warnings(); !strings.Contains(w, first) {
		t.Errorf("the status line's warnings lack %q:\n%s", first, w)
	}
	if n := len(s.Result.Ranking.Batches[0].Members); n != 8 {
		t.Errorf("step 0 has %d trajectories, want the 8 computed", n)
	}
	followLines(t, m, step(2, 0))
	if w := warnings(); !strings.Contains(w, first) {
		t.Errorf("an update without repeats changed the warning:\n%s", w)
	}
	followLines(t, m, strings.SplitAfter(step(1, 1), "\n")[0])
	second := `following: 1 trajectory repeats an earlier one's ID ("s1-c0") at step 1; 5 so far; each is computed`
	if w := warnings(); !strings.Contains(w, second) || strings.Contains(w, first) {
		t.Errorf("the second update's repeats: want %q in place of the first's:\n%s", second, w)
	}
}

// TestFollowedLoadNotesItsIDs: the dashboard loading a followed run notes
// the IDs it opened on as it loads, off the event loop
// (Session.FollowedIDs), and an update re-logging them is warned of.
func TestFollowedLoadNotesItsIDs(t *testing.T) {
	const line = `{"id":"s0-c0","batch":0,"group":"g","metadata":{"a":1,"b":1}}` + "\n"
	updates := make(chan loaders.Update)
	in := Input{Source: "run.jsonl", Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		res, err := loaders.Stream([]string{"-"}, loaders.Options{Stdin: strings.NewReader(line), Pick: hooks.Pick}, hooks.Each)
		return res, updates, err
	}}
	app := loadModel(t, in, 160)
	if app.Session().FollowedIDs == nil {
		t.Fatal("the load did not note the IDs it opened on")
	}
	followLines(t, app, line)
	want := `following: 1 trajectory repeats an earlier one's ID ("s0-c0") at step 0; each is computed`
	if w := strings.Join(app.status.Warnings(), "\n"); !strings.Contains(w, want) {
		t.Errorf("no %q among the warnings:\n%s", want, w)
	}
}

// TestFollowTakesTheOpeningsIDs: following takes the IDs its session
// noted as it opened (session.Builder.Follow), the one place they are
// noted; a session opened otherwise is refused, not noted a second way.
func TestFollowTakesTheOpeningsIDs(t *testing.T) {
	const line = `{"id":"s0-c0","batch":0,"group":"g","metadata":{"a":1,"b":1}}` + "\n"
	followed := NewModel(uitest.FollowedTextSession(t, line), true)
	followed.follow(make(chan loaders.Update), waitNotes{})
	if followed.live.repeats != followed.Session().FollowedIDs {
		t.Error("following did not take the IDs the session noted as it opened")
	}
	defer func() {
		if recover() == nil {
			t.Error("following a session not opened to be followed did not fail")
		}
	}()
	NewModel(uitest.TextSession(t, line), true).follow(make(chan loaders.Update), waitNotes{})
}
