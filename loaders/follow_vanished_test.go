package loaders

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestFollowVanishedUnread: in a followed directory, a file that appears
// and is deleted before it was read is said (a VanishedError of its
// path: the rows it held are missing), and recovers when it comes back
// and is read; a temporary file renamed into place (an atomic write: the
// rename's target is read) is not said.
func TestFollowVanishedUnread(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.jsonl", idLines("a", 1))
	ctx, cancel := context.WithCancel(context.Background())
	// Events alone, no polling: nothing looks between the writes below.
	res, ch, err := Follow(ctx, []string{dir}, FollowOptions{Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		for range ch {
		}
	}()
	f := newFollowed(res)
	var vanished, recovered []string
	apply := func(u Update) {
		f.apply(u)
		for _, err := range u.Errs {
			if v := (*VanishedError)(nil); errors.As(err.Err, &v) {
				vanished = append(vanished, v.Path)
			}
		}
		recovered = append(recovered, u.Recovered...)
	}
	await := func(what string, done func() bool) {
		t.Helper()
		awaitUpdates(t, ch, what, apply, done, func() string { return "" })
	}
	// A line read as it comes: the follower watches.
	a := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(a, []byte(idLines("a", 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	await("a.jsonl's new line", func() bool { return len(f.ids[a]) == 2 })
	b := filepath.Join(dir, "b.jsonl")
	write("b.jsonl", idLines("b", 1))
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	await("b.jsonl said gone unread", func() bool { return len(vanished) > 0 })
	if !slices.Equal(vanished, []string{b}) {
		t.Errorf("vanished %q, want b.jsonl's alone", vanished)
	}
	if want := b + ": appeared and went before it was read: the rows it held, if any, are missing"; f.errs[len(f.errs)-1].Error() != want {
		t.Errorf("error %q, want %q", f.errs[len(f.errs)-1], want)
	}

	// An atomic write: the temporary file renamed into place.
	write("tmp_c.jsonl", idLines("c", 2))
	if err := os.Rename(filepath.Join(dir, "tmp_c.jsonl"), filepath.Join(dir, "c.jsonl")); err != nil {
		t.Fatal(err)
	}
	await("c.jsonl read", func() bool { return len(f.ids[filepath.Join(dir, "c.jsonl")]) == 2 })
	write("b.jsonl", idLines("b", 1))
	await("b.jsonl back", func() bool { return len(f.ids[b]) == 1 })
	if !slices.Equal(vanished, []string{b}) || !slices.Contains(recovered, b) {
		t.Errorf("vanished %q, recovered %q: want b.jsonl's alone, recovered once read, and not the renamed temporary file", vanished, recovered)
	}
}
