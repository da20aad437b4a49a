package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestFollowLeftOutWhileWaitingJoinsLater: files left out while the
// dashboard waited for its first trajectories and one left out later are
// said in one line, as the later ones of a followed run join it.
func TestFollowLeftOutWhileWaitingJoinsLater(t *testing.T) {
	const why = "compressed with bzip2, which is not read: decompress it, or gzip it"
	waiting := loaders.LeftOutFile{Path: "run/step_3.jsonl.bz2", Why: why}
	later := loaders.LeftOutFile{Path: "run/step_4.jsonl.bz2", Why: why}
	first, err := loaders.Read(strings.NewReader(`{"id":"a","group":"g","batch":1,"metadata":{"x":1}}`+"\n"), "run/step_1.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	updates := make(chan loaders.Update, 2)
	updates <- loaders.Update{LeftOut: []loaders.LeftOutFile{waiting}}
	updates <- loaders.Update{Trajectories: first.Trajectories}
	in := Input{Source: "run", Follow: func(StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		return &loaders.Result{}, updates, nil
	}}
	s, ups, waited, err := in.followedSession(func(int64, int64) {}, func([]loaders.Unended) {})
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.follow(ups, waited)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(liveMsg{loaders.Update{LeftOut: []loaders.LeftOutFile{later}}, true})
	var lines []string
	for _, w := range m.status.Warnings() {
		if strings.Contains(w, "left out") {
			lines = append(lines, w)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], waiting.Path) || !strings.Contains(lines[0], later.Path) {
		t.Errorf("files left out said in %q, want one line naming %s and %s", lines, waiting.Path, later.Path)
	}
}
