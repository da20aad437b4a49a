package follow

import (
	"errors"
	"fmt"

	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/loaders"
)

// Skipped counts the lines skipped in a followed run, from its first
// reading on, as the follower counts them (loaders.Update.Skipped: each
// record once for its place, text and fault however often its file is
// read again, anew in a file truncated or replaced that no longer holds
// it), with --skip-invalid-lines or without (the malformed lines of
// loaders.MalformedError, skipped all the same), and the first one's
// reason: stats --follow's skipped_lines and the dashboard's warning.
type Skipped struct {
	N     int
	First *loaders.LineError // nil when none was kept
}

// Read counts the lines a reading skipped (loaders.Result.Skipped and
// SkipReasons).
func (s *Skipped) Read(n int, reasons []*loaders.LineError) {
	if s.First == nil && len(reasons) > 0 {
		s.First = reasons[0]
	}
	s.N += n
}

// Update counts the lines u skipped, and returns how many of them were
// malformed lines skipped without --skip-invalid-lines (in u.Errs).
func (s *Skipped) Update(u loaders.Update) (malformed int) {
	s.Read(u.Skipped, u.SkipReasons)
	for _, e := range u.Errs {
		for _, err := range Joined(e.Err) {
			var m *loaders.MalformedError
			if errors.As(err, &m) {
				var first []*loaders.LineError
				if m.First != nil {
					first = append(first, m.First)
				}
				s.Read(m.Skipped, first)
				malformed += m.Skipped
			}
		}
	}
	return malformed
}

// Warning says the lines skipped so far and where the first was, ""
// when none was: `skipped N malformed lines (the first: PATH:LINE:COL:
// why)`.
func (s *Skipped) Warning() string {
	if s.N == 0 {
		return ""
	}
	w := fmt.Sprintf("skipped %d malformed %s", s.N, english.Plural(s.N, "line"))
	if s.First != nil {
		w += fmt.Sprintf(" (the first: %v)", s.First)
	}
	return w
}

// Joined returns the errors err joins (errors.Join), at any depth (an
// update joins each file's, a file its rotated part's), err itself when
// it joins none, nil for nil: each is said on its own, none hidden in
// another.
func Joined(err error) []error {
	if err == nil {
		return nil
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range joined.Unwrap() {
		out = append(out, Joined(e)...)
	}
	return out
}
