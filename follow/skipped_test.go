package follow

import (
	"errors"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestSkippedCountsEveryUpdate: the lines a first reading skipped, then
// an update's with --skip-invalid-lines and the malformed lines of an
// update without it, joined at any depth (a rotated file's part and its
// new one), are one count, its first reason the first reading's.
func TestSkippedCountsEveryUpdate(t *testing.T) {
	first := &loaders.LineError{Path: "run.jsonl", Line: 769, Col: 8, Msg: "invalid JSON"}
	var s Skipped
	if w := s.Warning(); w != "" {
		t.Errorf("nothing skipped: %q", w)
	}
	s.Read(1, []*loaders.LineError{first})
	if w, want := s.Warning(), "skipped 1 malformed line (the first: run.jsonl:769:8: invalid JSON)"; w != want {
		t.Errorf("warning %q, want %q", w, want)
	}
	later := &loaders.LineError{Path: "run.jsonl", Line: 900, Msg: "invalid JSON"}
	if m := s.Update(loaders.Update{Skipped: 2, SkipReasons: []*loaders.LineError{later}}); m != 0 {
		t.Errorf("skipped with --skip-invalid-lines counted %d malformed", m)
	}
	m := func(path string, n int, first *loaders.LineError) error {
		return &loaders.MalformedError{Path: path, Skipped: n, First: first}
	}
	errs := []loaders.FileError{{Path: "a.jsonl", Err: errors.Join(m("a.jsonl", 1, later))}, {Path: "b.jsonl", Err: m("b.jsonl", 2, nil)},
		{Path: "c.jsonl", Err: errors.Join(m("c.jsonl", 3, nil), m("c.jsonl.1", 4, nil))}}
	if got := s.Update(loaders.Update{Errs: errs}); got != 10 {
		t.Errorf("counted %d malformed lines, want 10", got)
	}
	if w, want := s.Warning(), "skipped 13 malformed lines (the first: run.jsonl:769:8: invalid JSON)"; w != want {
		t.Errorf("warning %q, want %q", w, want)
	}
}
