package loaders

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestLastLineEndLimit checks where the complete lines end before a
// limit, and that a line longer than the limit is not cut.
func TestLastLineEndLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("aaa\nbbbb\ncc"), 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct{ from, limit, want int64 }{
		{0, 100, 9}, // past the end: the last complete line
		{0, 9, 9},   // "bbbb\n" ends at 9, in the bytes [0, 9)
		{0, 8, 4},   // it does not end in [0, 8)
		{0, 2, 4},   // no line end before 2: the first line whole
		{4, 6, 9},   // from 4: "bbbb\n" whole
		{9, 10, 9},  // "cc" is no complete line
		{9, 100, 9}, // nor with no limit
	} {
		got, err := lastLineEnd(file, c.from, c.limit)
		if err != nil || got != c.want {
			t.Errorf("lastLineEnd(from %d, limit %d) = %d, %v; want %d", c.from, c.limit, got, err, c.want)
		}
	}
}

// TestFollowBurstInParts appends, in one write, many times growChunk of
// lines and a line longer than growChunk to a followed file, and digests
// each update slowly: the lines come in parts of about growChunk, not
// merged into one while the consumer is busy, each line once and in
// order, the long line whole.
func TestFollowBurstInParts(t *testing.T) {
	defer goleak.VerifyNone(t)
	kept := growChunk
	growChunk = 2 << 10
	defer func() { growChunk = kept }()
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(path, []byte(idLines("s", 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{path}, followOptions(true))
	if err != nil {
		t.Fatal(err)
	}
	f := newFollowed(res)
	long := `{"id":"long","metadata":{"a":1,"text":"` + strings.Repeat("x", 3*int(growChunk)) + `"}}` + "\n"
	burst := idLines("b", 300) + long + idLines("c", 100)
	appendText(t, path, burst)
	want := slices.Concat(ids("s", 2), ids("b", 300), []string{"long"}, ids("c", 100))
	updates, most := 0, 0
	awaitUpdates(t, ch, "the burst", func(u Update) {
		f.apply(u)
		if len(u.Trajectories) > 0 {
			updates++
			most = max(most, len(u.Trajectories))
		}
		time.Sleep(5 * time.Millisecond) // a consumer slower than the reads
	}, func() bool { return len(f.ids[path]) >= len(want) }, func() string { return strings.Join(f.ids[path], " ") })
	if !slices.Equal(f.ids[path], want) {
		t.Fatalf("ids %v, want %v", f.ids[path], want)
	}
	// The short lines are about 30 bytes: a part holds at most about
	// growChunk of them.
	if perPart := int(growChunk) / 25; updates < len(burst)/int(growChunk) || most > perPart {
		t.Errorf("the burst came in %d updates of at most %d lines, want at least %d parts of at most %d lines",
			updates, most, len(burst)/int(growChunk), perPart)
	}
}

// TestUpdateTakesTheReadArray checks that an update takes the array of
// the first check's trajectories as its own, not a copy, and appends a
// later check's after them.
func TestUpdateTakesTheReadArray(t *testing.T) {
	first := &Result{Trajectories: make([]scoring.Trajectory, 3, 8)}
	for i := range first.Trajectories {
		first.Trajectories[i].ID = fmt.Sprint("a", i)
	}
	var u Update
	u.add("f", fileChange{res: first})
	if &u.Trajectories[0] != &first.Trajectories[0] {
		t.Error("the update copied the trajectories of its first check")
	}
	second := &Result{Trajectories: []scoring.Trajectory{{ID: "b0"}}}
	u.add("f", fileChange{res: second})
	var got []string
	for _, tr := range u.Trajectories {
		got = append(got, tr.ID)
	}
	if want := []string{"a0", "a1", "a2", "b0"}; !slices.Equal(got, want) {
		t.Errorf("update holds %v, want %v", got, want)
	}
}
