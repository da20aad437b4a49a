package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestLiveUnendedLine: a followed file whose last line stays without its
// line end is warned of in the status line until the follower says it
// changed (it ended and was read).
func TestLiveUnendedLine(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.Session()
	unended := loaders.Unended{Path: "run.jsonl", Line: 12, Bytes: 57, For: 5 * time.Second}
	want := "run.jsonl:12: the last line has no line end after 5 s (57 bytes waiting); not read until it ends"
	m.Update(liveMsg{loaders.Update{Unended: []loaders.Unended{unended}}, true})
	if v := screen(m); !slices.Contains(s.Warnings, want) || !strings.Contains(v, "the last line has no line end") {
		t.Fatalf("warnings %q; status line:\n%s", s.Warnings, v)
	}
	m.Update(liveMsg{loaders.Update{Resumed: []string{"run.jsonl"}}, true})
	if v := screen(m); slices.Contains(s.Warnings, want) || strings.Contains(v, "no line end") {
		t.Errorf("resumed: warnings %q; status line:\n%s", s.Warnings, v)
	}
}
