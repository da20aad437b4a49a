package follow

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/loaders"
)

// Unread keeps the followed files that could not be read (an open or a
// read that failed, a file that kept changing under its readings), each
// with its latest error, from the update that says it until a reading of
// the file ends without one (loaders.Update.Recovered, Reloaded), reads
// it with malformed lines alone, or the file is gone: while they are
// there, what is computed lacks their rows, so neither stats --follow's
// lines nor the dashboard's badge may say the run healthy unsaid. A
// malformed line (loaders.MalformedError) leaves no file unread: its
// file was read, the line skipped (Skipped counts it).
type Unread struct {
	files []loaders.FileError
}

// Update notes what u says of the files' readings, as the dashboard's
// status line keeps their errors: the files read again or recovered
// forget theirs first, then u's errors come in order, then the gone
// files forget theirs.
func (r *Unread) Update(u loaders.Update) {
	r.files = slices.DeleteFunc(r.files, func(f loaders.FileError) bool {
		return slices.Contains(u.Reloaded, f.Path) || slices.Contains(u.Recovered, f.Path)
	})
	for _, e := range u.Errs {
		if e.Recovered {
			continue
		}
		var failed []error
		for _, err := range Joined(e.Err) {
			var m *loaders.MalformedError
			if !errors.As(err, &m) {
				failed = append(failed, err)
			}
		}
		i := slices.IndexFunc(r.files, func(f loaders.FileError) bool { return f.Path == e.Path })
		switch {
		case len(failed) == 0 && i >= 0: // read, its bad lines skipped
			r.files = slices.Delete(r.files, i, i+1)
		case len(failed) == 0:
		case i >= 0:
			r.files[i].Err = errors.Join(failed...)
		default:
			r.files = append(r.files, loaders.FileError{Path: e.Path, Err: errors.Join(failed...)})
		}
	}
	r.files = slices.DeleteFunc(r.files, func(f loaders.FileError) bool { return slices.Contains(u.Gone, f.Path) })
}

// Files returns the files not read, in the order their errors came, each
// with its latest error; none when every file was read.
func (r *Unread) Files() []loaders.FileError {
	return slices.Clone(r.files)
}

// Paths returns the paths of Files.
func (r *Unread) Paths() []string {
	paths := make([]string, len(r.files))
	for i, f := range r.files {
		paths[i] = f.Path
	}
	return paths
}

// maxUnreadNamed is how many unread files a warning names; the others
// are counted.
const maxUnreadNamed = 3

// Warning says the files not read, "" when there is none: `1 followed
// file not read, its rows missing: open run_1.jsonl: permission denied`,
// each by the first line of its error (with its path before it when the
// error does not name it), the first maxUnreadNamed of them, then `and K
// more`. when is said after "not read" (" as following ends"), "" for
// nothing.
func (r *Unread) Warning(when string) string {
	n := len(r.files)
	if n == 0 {
		return ""
	}
	var parts []string
	for _, f := range r.files[:min(n, maxUnreadNamed)] {
		text := f.FirstLine()
		if !strings.Contains(text, f.Path) {
			text = f.Path + ": " + text
		}
		parts = append(parts, text)
	}
	if n > maxUnreadNamed {
		parts = append(parts, fmt.Sprintf("and %d more", n-maxUnreadNamed))
	}
	return fmt.Sprintf("%d followed %s not read%s, %s rows missing: %s", n, english.Plural(n, "file"), when,
		english.Verb(n, "its", "their"), strings.Join(parts, "; "))
}
