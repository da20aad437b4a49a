package loaders

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestFollowUnendedLineIsSaid: a followed file whose last line stays
// without its line end (JSONL and CSV alike) is said once, with its line
// and its bytes, after UnendedWait, the line still not read; once it
// ends, it is read and the file is said resumed. At the end, AtEnd gets
// the files whose last line then has no line end.
func TestFollowUnendedLineIsSaid(t *testing.T) {
	for _, c := range []struct{ name, first, cut, rest string }{
		{"run.jsonl", `{"id":"a"}` + "\n", `{"id":"b"`, "}\n"},
		{"run.csv", "id,x\na,1\n", "b,10", "00\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer goleak.VerifyNone(t)
			path := filepath.Join(t.TempDir(), c.name)
			writeText(t, path, c.first+c.cut)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var atEnd []Unended
			opts := followOptions(false)
			opts.UnendedWait = 50 * time.Millisecond
			opts.AtEnd = func(u []Unended) { atEnd = u }
			res, ch, err := Follow(ctx, []string{path}, opts)
			if err != nil || len(res.Trajectories) != 1 {
				t.Fatalf("%+v, %v", res, err)
			}
			line := 2
			if c.name == "run.csv" {
				line = 3
			}
			// The first reading tells it at once, unsaid yet.
			if first := []Unended{{Path: path, Line: line, Bytes: int64(len(c.cut))}}; !slices.Equal(res.Unended, first) {
				t.Errorf("the first reading's Unended %v, want %v", res.Unended, first)
			}
			want := Unended{Path: path, Line: line, Bytes: int64(len(c.cut)), For: opts.UnendedWait}
			var said []Unended
			var resumed []string
			f := newFollowed(&Result{})
			apply := func(u Update) {
				f.apply(u)
				said = append(said, u.Unended...)
				resumed = append(resumed, u.Resumed...)
			}
			awaitUpdates(t, ch, "the unended line said", apply, func() bool { return len(said) > 0 }, func() string { return "" })
			if !slices.Equal(said, []Unended{want}) || len(f.ids) != 0 {
				t.Fatalf("said %v, read %v; want %v alone", said, f.ids, want)
			}
			wantText := fmt.Sprintf("%s:%d: the last line has no line end after 0.1 s (%d bytes waiting); not read until it ends", path, line, len(c.cut))
			if got := said[0].String(); got != wantText {
				t.Errorf("%q, want %q", got, wantText)
			}
			// Said once: nothing more while it stays.
			select {
			case u := <-ch:
				t.Fatalf("said again: %+v", u)
			case <-time.After(4 * opts.UnendedWait):
			}
			testfile.Append(t, path, c.rest)
			awaitUpdates(t, ch, "the line ended", apply, func() bool { return len(resumed) > 0 && len(f.ids) > 0 }, func() string { return "" })
			if !slices.Equal(resumed, []string{path}) || len(said) != 1 {
				t.Errorf("resumed %v, said %v", resumed, said)
			}
			testfile.Append(t, path, c.cut)
			awaitUpdates(t, ch, "the next unended line said", apply, func() bool { return len(said) == 2 }, func() string { return "" })
			cancel()
			for u := range ch {
				apply(u)
			}
			if len(atEnd) != 1 || atEnd[0].Path != path || atEnd[0].Line != line+1 || atEnd[0].Bytes != int64(len(c.cut)) {
				t.Errorf("at the end: %v", atEnd)
			}
		})
	}
}

// TestFollowUnendedAtEndHoweverNew: as following ends, a last line
// without its line end is among the unended however short its wait.
func TestFollowUnendedAtEndHoweverNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	writeText(t, path, `{"id":"a"}`+"\n"+`{"id":`)
	f, _ := newTestFollowerWith(t, FollowOptions{Poll: time.Hour, NoWatch: true, UnendedWait: time.Hour}, path)
	got := f.unendedAtEnd(time.Now())
	if len(got) != 1 || got[0].Path != path || got[0].Line != 2 || got[0].Bytes != 6 {
		t.Errorf("%v", got)
	}
	f.sayUnended(time.Now())
	if len(f.pending) != 0 {
		t.Errorf("said before its wait: %+v", f.pending)
	}
}
