package cmd

// What stats --follow says of its inputs as they change (files read
// again or gone, lines skipped, errors) and, as following ends, of the
// lines it could not read: the loop that meets them is follow.go.

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rewardlens/rewardlens/follow"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders"
)

// malformedError says how many malformed lines following skipped without
// --skip-invalid-lines (each warned of as it came); nil for none.
func malformedError(n int) error {
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%d malformed %s skipped while following (warned of above): bad input", n, english.Plural(n, "line"))
}

// unendedError says which followed files had a last line without its line
// end, not read, when following ended; nil when none had.
func unendedError(unended []loaders.Unended) error {
	switch len(unended) {
	case 0:
		return nil
	case 1:
		u := unended[0]
		return fmt.Errorf("%s:%d: the last line has no line end as following ends (%s): not read", u.Path, u.Line, bytesOf(u.Bytes))
	}
	parts := make([]string, len(unended))
	for i, u := range unended {
		parts[i] = fmt.Sprintf("%s:%d (%s)", u.Path, u.Line, bytesOf(u.Bytes))
	}
	return fmt.Errorf("%d followed files end with a line without its line end as following ends, not read: %s", len(unended), strings.Join(parts, ", "))
}

// reportUpdate tells, on stderr, what happened to the inputs besides new
// trajectories: files read again or gone, skipped lines, files that
// appeared and are not read (loaders.Update.LeftOut), errors; the
// malformed lines skipped without --skip-invalid-lines
// (loaders.MalformedError) each as a warning.
func reportUpdate(w io.Writer, u loaders.Update) {
	for _, p := range u.Reloaded {
		fmt.Fprintf(w, "rewardlens: %s: read again from the start (truncated, replaced or rewritten)\n", textsafe.Line(p))
	}
	for _, p := range follow.GoneAfterRead(u) {
		fmt.Fprintf(w, "rewardlens: %s: gone; what was read from it stays\n", textsafe.Line(p))
	}
	for _, un := range u.Unended {
		fmt.Fprintf(w, "rewardlens: warning: %s\n", textsafe.Line(un.String()))
	}
	reportSkipped(w, &loaders.Result{Skipped: u.Skipped, SkipReasons: u.SkipReasons})
	reportRelogged(w, u.Relogged)
	if note := loaders.LeftOutNote(u.LeftOut); note != "" {
		fmt.Fprintf(w, "rewardlens: %s\n", textsafe.Line(note)) // as the start's note on the files there then
	}
	for _, err := range follow.Joined(u.Err()) {
		var m *loaders.MalformedError
		if errors.As(err, &m) {
			text := m.Error()
			if m.Skipped == 1 && m.First != nil {
				text += ": line skipped" // the reason alone does not say it
			}
			fmt.Fprintf(w, "rewardlens: warning: %s\n", textsafe.Line(text))
			continue
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(w, "rewardlens: %s\n", textsafe.Line(line))
		}
	}
}

// bytesOf writes "1 byte", "57 bytes".
func bytesOf(n int64) string {
	return fmt.Sprintf("%d %s", n, english.Plural(int(n), "byte"))
}
