package loaders

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestFollowJSONLEditedInTheMiddle: a followed JSONL file, grown by lines
// after its first reading, then edited in place at the same size (a line
// of the first reading and one of the growth), its first bytes and its
// last 4 KiB unchanged, is read again with the new values (Reloaded), not
// taken for a growth of nothing; a growth after that brings its new line
// alone.
func TestFollowJSONLEditedInTheMiddle(t *testing.T) {
	defer goleak.VerifyNone(t)
	linesOf := func(ids []string) string {
		var b strings.Builder
		for _, id := range ids {
			fmt.Fprintf(&b, `{"id":%q,"metadata":{"a":1}}`+"\n", id)
		}
		return b.String()
	}
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("r%03d", i)
	}
	path, f, ch, stop := followNew(t, "run.jsonl", []byte(linesOf(ids[:500])), false)
	defer stop()
	var got []Update
	watch := func(u Update) {
		f.apply(u)
		got = append(got, u)
	}
	state := func() string {
		return fmt.Sprintf("loaded %d, errors %v, updates %d", len(f.ids[path]), f.errs, len(got))
	}
	testfile.Append(t, path, linesOf(ids[500:]))
	awaitUpdates(t, ch, "grown", watch, func() bool { return slices.Equal(f.ids[path], ids) }, state)

	edited := slices.Clone(ids)
	edited[10], edited[700] = "e010", "e700"
	first, edit := linesOf(ids), linesOf(edited)
	if len(edit) != len(first) || edit[:headSize] != first[:headSize] || edit[len(edit)-beforeSize:] != first[len(first)-beforeSize:] {
		t.Fatal("the fixture must edit lines in the middle, at the same size")
	}
	got = nil
	writeOver(t, path, []byte(edit))
	// A later modification time, as an edit a moment after the writing
	// has: the stat sees a change whatever its clock's grain.
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, st.ModTime(), st.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	awaitUpdates(t, ch, "edited", watch, func() bool { return slices.Equal(f.ids[path], edited) }, state)
	if !slices.Equal(got[len(got)-1].Reloaded, []string{path}) {
		t.Errorf("edited: reloaded %v; want it read again", got[len(got)-1].Reloaded)
	}

	got = nil
	testfile.Append(t, path, linesOf([]string{"r1000"}))
	grown := append(edited, "r1000")
	awaitUpdates(t, ch, "grown after the edit", watch, func() bool { return slices.Equal(f.ids[path], grown) }, state)
	for _, u := range got {
		if len(u.Reloaded) > 0 || len(u.Trajectories) > 1 {
			t.Errorf("grown after the edit: %d trajectories, reloaded %v; want the new line alone", len(u.Trajectories), u.Reloaded)
		}
	}

	// Touched, not edited: nothing is read again (the follower polls
	// every 5 ms: it looks at the touched file before the line comes).
	got = nil
	if err := os.Chtimes(path, st.ModTime(), st.ModTime().Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	testfile.Append(t, path, linesOf([]string{"r1001"}))
	grown = append(grown, "r1001")
	awaitUpdates(t, ch, "touched", watch, func() bool { return slices.Equal(f.ids[path], grown) }, state)
	for _, u := range got {
		if len(u.Reloaded) > 0 {
			t.Errorf("touched: reloaded %v; want the new line alone", u.Reloaded)
		}
	}
}
