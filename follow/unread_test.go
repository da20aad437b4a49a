package follow

import (
	"errors"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestUnreadKeepsFilesUntilRead: a file whose reading failed is unread,
// with its latest error, until a reading of it ends without one
// (Recovered, Reloaded), reads it with a malformed line alone, or it is
// gone; a malformed line alone leaves no file unread; an error after the
// file recovered, in one merged update, stands.
func TestUnreadKeepsFilesUntilRead(t *testing.T) {
	denied := errors.New("open a_1.jsonl: permission denied")
	deniedAgain := errors.New("read a_1.jsonl: input/output error")
	malformed := &loaders.MalformedError{Path: "b.jsonl", Skipped: 1}
	var r Unread
	check := func(what string, want ...string) {
		t.Helper()
		if got := r.Paths(); !slices.Equal(got, want) {
			t.Errorf("%s: unread %q, want %q", what, got, want)
		}
	}
	r.Update(loaders.Update{Errs: []loaders.FileError{{Path: "b.jsonl", Err: malformed}, {Path: "a_1.jsonl", Err: denied}}})
	check("failed, and a malformed line", "a_1.jsonl")
	if w, want := r.Warning(""), "1 followed file not read, its rows missing: open a_1.jsonl: permission denied"; w != want {
		t.Errorf("warning %q, want %q", w, want)
	}
	r.Update(loaders.Update{Errs: []loaders.FileError{{Path: "a_1.jsonl", Err: deniedAgain}}})
	if files := r.Files(); len(files) != 1 || files[0].Err.Error() != deniedAgain.Error() {
		t.Errorf("the latest error not kept: %v", files)
	}
	r.Update(loaders.Update{Recovered: []string{"a_1.jsonl"}, Errs: []loaders.FileError{{Path: "a_1.jsonl", Err: denied, Recovered: true}}})
	check("recovered")
	r.Update(loaders.Update{Recovered: []string{"a_1.jsonl"}, Errs: []loaders.FileError{{Path: "a_1.jsonl", Err: denied, Recovered: true}, {Path: "a_1.jsonl", Err: deniedAgain}}})
	check("failed again after it recovered", "a_1.jsonl")
	r.Update(loaders.Update{Errs: []loaders.FileError{{Path: "a_1.jsonl", Err: errors.Join(&loaders.MalformedError{Path: "a_1.jsonl", Skipped: 2})}}})
	check("read with malformed lines")

	r.Update(loaders.Update{Errs: []loaders.FileError{{Path: "a.jsonl", Err: errors.New("too many levels of symbolic links")}, {Path: "b.jsonl", Err: errors.New("open b.jsonl: permission denied")},
		{Path: "c.jsonl", Err: errors.New("open c.jsonl: permission denied")}, {Path: "d.jsonl", Err: denied}}})
	want := "4 followed files not read as following ends, their rows missing: a.jsonl: too many levels of symbolic links; " +
		"open b.jsonl: permission denied; open c.jsonl: permission denied; and 1 more"
	if w := r.Warning(" as following ends"); w != want {
		t.Errorf("warning %q, want %q", w, want)
	}
	r.Update(loaders.Update{Reloaded: []string{"b.jsonl"}, Gone: []string{"c.jsonl"}})
	check("read again, gone", "a.jsonl", "d.jsonl")
}

// TestFailedKeepsEveryFileError: Failed, the status line's list, keeps
// the files whose latest reading failed, a malformed line's too, each by
// its latest error (one update's joined, the latest first), until the
// file is read well again or gone; Files leaves the malformed ones out.
func TestFailedKeepsEveryFileError(t *testing.T) {
	denied := errors.New("open a.jsonl: permission denied")
	ioError := errors.New("read a.jsonl: input/output error")
	malformed := &loaders.MalformedError{Path: "b.jsonl", Skipped: 1}
	var r Unread
	firstLines := func() []string {
		var out []string
		for _, f := range r.Failed() {
			out = append(out, f.Path+" "+f.FirstLine())
		}
		return out
	}
	r.Update(loaders.Update{Errs: []loaders.FileError{{Path: "b.jsonl", Err: malformed}, {Path: "a.jsonl", Err: denied}, {Path: "a.jsonl", Err: ioError}}})
	if got, want := firstLines(), []string{"b.jsonl " + malformed.Error(), "a.jsonl " + ioError.Error()}; !slices.Equal(got, want) {
		t.Errorf("failed %q, want %q", got, want)
	}
	if got := r.Paths(); !slices.Equal(got, []string{"a.jsonl"}) {
		t.Errorf("unread %q, want a.jsonl alone", got)
	}
	r.Update(loaders.Update{Recovered: []string{"a.jsonl"}, Gone: []string{"b.jsonl"}})
	if got := r.Failed(); len(got) != 0 {
		t.Errorf("failed after a.jsonl recovered and b.jsonl went: %v", got)
	}
}

// TestUnreadKeepsVanishedFile: a file that went before it was read
// (loaders.VanishedError) stays unread though it is gone, its rows
// missing, until it comes back and is read (Recovered).
func TestUnreadKeepsVanishedFile(t *testing.T) {
	var r Unread
	vanished := &loaders.VanishedError{Path: "run/b.jsonl"}
	r.Update(loaders.Update{Gone: []string{"run/b.jsonl"}, Errs: []loaders.FileError{{Path: "run/b.jsonl", Err: vanished}}})
	if got := r.Paths(); !slices.Equal(got, []string{"run/b.jsonl"}) {
		t.Errorf("unread %q, want run/b.jsonl: it went unread", got)
	}
	r.Update(loaders.Update{Recovered: []string{"run/b.jsonl"}})
	if got := r.Paths(); len(got) != 0 {
		t.Errorf("unread %q after it came back and was read", got)
	}
}
