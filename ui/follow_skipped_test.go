package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestFollowCountsSkippedLinesAsStatsDoes: the lines skipped by the
// first reading and by the updates (with --skip-invalid-lines, and the
// malformed ones without) are one count in one warning, with the first
// one's place, as stats --follow's skipped_lines counts them; not the
// load's count beside a count "while following" that says no place.
func TestFollowCountsSkippedLinesAsStatsDoes(t *testing.T) {
	const text = `{"id":"a","batch":0,"group":"g","metadata":{"a":1,"b":1}}` + "\n" + `{"id": broken` + "\n" +
		`{"id":"b","batch":0,"group":"g","metadata":{"a":0,"b":1}}` + "\n"
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	s := uitest.FollowedSession(t, "run.jsonl", setup.Config{}, res)
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	warnings := func() string { return strings.Join(m.status.Warnings(), "\n") }
	const place = "(the first: run.jsonl:2:8: invalid JSON: invalid character 'b' looking for beginning of value)"
	if w := warnings(); !strings.Contains(w, "skipped 1 malformed line "+place) {
		t.Fatalf("the load's skipped line is not said:\n%s", w)
	}
	again := res.SkipReasons[0]
	m.Update(liveMsg{loaders.Update{Skipped: 1, SkipReasons: []*loaders.LineError{again}}, true})
	malformed := &loaders.LineError{Path: "run.jsonl", Line: 9, Col: 1, Msg: "invalid JSON"}
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: "run.jsonl", Err: &loaders.MalformedError{Path: "run.jsonl", Skipped: 1, First: malformed}}}}, true})
	w := warnings()
	if !strings.Contains(w, "skipped 3 malformed lines "+place) || strings.Count(w, "skipped") != 1 {
		t.Errorf("want one count of the 3 lines skipped, with the first's place:\n%s", w)
	}
}
