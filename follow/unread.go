package follow

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/loaders"
)

// Unread keeps the followed files whose latest reading failed, each with
// its errors, from the update that says them until a reading of the file
// ends without one (loaders.Update.Recovered, Reloaded) or the file is
// gone, but one gone before it was read (loaders.VanishedError), which
// stays until it comes back and is read: the dashboard's status line
// says each (Failed). Among them, the
// files not read (an open or a read that failed, a file that kept
// changing under its readings, one that went before it was read; Files)
// are those whose latest errors are
// not all malformed lines: while they are there, what is computed lacks
// their rows, so neither stats --follow's lines nor the dashboard's badge
// may say the run healthy unsaid. A malformed line
// (loaders.MalformedError) leaves no file unread: its file was read, the
// line skipped (Skipped counts it).
type Unread struct {
	failed []failedFile
}

// failedFile is a followed file whose latest reading failed: its errors,
// the latest first (as loaders.Update.FileErrs joins one update's), and
// the latest's but the malformed lines' (nil when the file was read, its
// bad lines skipped).
type failedFile struct {
	loaders.FileError
	unread error
}

// Update notes what u says of the files' readings: the files read again
// or recovered forget their errors first, then u's errors come in order,
// each replacing its file's earlier update's (joined to those of its
// file in u), then the gone files forget theirs.
func (r *Unread) Update(u loaders.Update) {
	r.failed = slices.DeleteFunc(r.failed, func(f failedFile) bool {
		return slices.Contains(u.Reloaded, f.Path) || slices.Contains(u.Recovered, f.Path)
	})
	var inUpdate []string // the files u has errors of so far
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
		f := failedFile{FileError: loaders.FileError{Path: e.Path, Err: e.Err}, unread: errors.Join(failed...)}
		i := slices.IndexFunc(r.failed, func(f failedFile) bool { return f.Path == e.Path })
		switch {
		case i < 0:
			r.failed = append(r.failed, f)
		case slices.Contains(inUpdate, e.Path):
			r.failed[i].Err, r.failed[i].unread = errors.Join(e.Err, r.failed[i].Err), f.unread
		case r.failed[i].unread == nil && f.unread != nil:
			// Unread from now on: after the files unread before it.
			r.failed = append(slices.Delete(r.failed, i, i+1), f)
		default:
			r.failed[i] = f
		}
		inUpdate = append(inUpdate, e.Path)
	}
	// A file that went before it was read (loaders.VanishedError) stays:
	// its rows are missing until it comes back and is read (Recovered).
	r.failed = slices.DeleteFunc(r.failed, func(f failedFile) bool {
		var vanished *loaders.VanishedError
		return slices.Contains(u.Gone, f.Path) && !errors.As(f.unread, &vanished)
	})
}

// GoneAfterRead returns the files of u.Gone that were read, what was read
// from them staying: all but those u says went before they were read
// (loaders.VanishedError), of which nothing was read and their error
// alone speaks.
func GoneAfterRead(u loaders.Update) []string {
	var read []string
	for _, p := range u.Gone {
		vanished := slices.ContainsFunc(u.Errs, func(e loaders.FileError) bool {
			var v *loaders.VanishedError
			return e.Path == p && errors.As(e.Err, &v)
		})
		if !vanished {
			read = append(read, p)
		}
	}
	return read
}

// Failed returns the files whose latest reading failed, malformed lines
// included, in the order their errors first came (a file's first that
// left it unread counting as its first), each with its errors, the
// latest first.
func (r *Unread) Failed() []loaders.FileError {
	out := make([]loaders.FileError, len(r.failed))
	for i, f := range r.failed {
		out[i] = f.FileError
	}
	return out
}

// Files returns the files not read, in the order their errors came, each
// with its latest error but the malformed lines'; none when every file
// was read.
func (r *Unread) Files() []loaders.FileError {
	var out []loaders.FileError
	for _, f := range r.failed {
		if f.unread != nil {
			out = append(out, loaders.FileError{Path: f.Path, Err: f.unread})
		}
	}
	return out
}

// Paths returns the paths of Files.
func (r *Unread) Paths() []string {
	var paths []string
	for _, f := range r.Files() {
		paths = append(paths, f.Path)
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
	files := r.Files()
	n := len(files)
	if n == 0 {
		return ""
	}
	var parts []string
	for _, f := range files[:min(n, maxUnreadNamed)] {
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
