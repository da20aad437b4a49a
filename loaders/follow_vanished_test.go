package loaders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
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

// TestFollowVanishedNotSaid: neither is said vanished, each said as what
// it is: a temporary file renamed onto an existing file (an atomic write:
// the file is reloaded), and a file whose reading failed and said so,
// then deleted (gone: its error resolved).
func TestFollowVanishedNotSaid(t *testing.T) {
	dir := t.TempDir()
	step1, step2 := filepath.Join(dir, "step_1.jsonl"), filepath.Join(dir, "step_2.jsonl")
	for path, text := range map[string]string{step1: idLines("a", 1), step2: idLines("b", 1)} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Events alone, no polling: nothing looks between the write and the rename.
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
	var vanished []string
	apply := func(u Update) {
		f.apply(u)
		for _, err := range u.Errs {
			if v := (*VanishedError)(nil); errors.As(err.Err, &v) {
				vanished = append(vanished, v.Path)
			}
		}
	}
	await := func(what string, done func() bool) {
		t.Helper()
		awaitUpdates(t, ch, what, apply, done, func() string { return fmt.Sprint(f.ids, f.gone, f.errs) })
	}

	temp := filepath.Join(dir, "tmp_write.jsonl") // an input's name
	if err := os.WriteFile(temp, []byte(idLines("c", 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(temp, step2); err != nil {
		t.Fatal(err)
	}
	await("step_2.jsonl reloaded", func() bool { return slices.Equal(f.ids[step2], ids("c", 2)) })

	bad := filepath.Join(dir, "step_3.csv")
	if err := os.WriteFile(bad, []byte("id,\xff\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	await("step_3.csv's error", func() bool { return slices.Contains(f.errPaths, bad) })
	if err := os.Remove(bad); err != nil {
		t.Fatal(err)
	}
	await("step_3.csv gone", func() bool { return slices.Contains(f.gone, bad) })
	// A line after: an alarm would come with it.
	if err := os.WriteFile(step1, []byte(idLines("a", 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	await("step_1.jsonl's new line", func() bool { return len(f.ids[step1]) == 2 })
	if len(vanished) > 0 {
		t.Errorf("said vanished: %q; want none: an atomic write onto step_2.jsonl, a failed file deleted", vanished)
	}
}

// TestFollowAtomicReplaceNotVanished: the events of a temporary file
// written then renamed onto a followed file before the follower checks
// (created, renamed away; the target created) are an atomic write: the
// target is reloaded, the temporary file not said vanished.
func TestFollowAtomicReplaceNotVanished(t *testing.T) {
	dir := t.TempDir()
	step1, step2 := filepath.Join(dir, "step_1.jsonl"), filepath.Join(dir, "step_2.jsonl")
	for path, text := range map[string]string{step1: idLines("a", 1), step2: idLines("b", 1)} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, state := newTestFollower(t, dir)
	temp := filepath.Join(dir, "tmp_write.jsonl") // an input's name
	if err := os.WriteFile(temp, []byte(idLines("c", 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(temp, step2); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []fsnotify.Event{{Name: temp, Op: fsnotify.Create}, {Name: temp, Op: fsnotify.Rename}, {Name: step2, Op: fsnotify.Create}} {
		f.noteEvent(ev)
	}
	f.checkDirty()
	for _, u := range takePending(f, state) {
		for _, err := range u.Errs {
			if v := (*VanishedError)(nil); errors.As(err.Err, &v) {
				t.Errorf("said vanished: %v", err.Err)
			}
		}
	}
	if !slices.Equal(state.ids[step2], ids("c", 2)) || !slices.Contains(state.reloaded, step2) {
		t.Errorf("step_2.jsonl: ids %q, reloaded %q; want the renamed file's, reloaded", state.ids[step2], state.reloaded)
	}
}

// TestFollowDecidesAHeldCompanion: files of a followed directory named as
// companions whose first line is unfinished are held (neither read nor
// said) until a change to one ends the line: then the one with a
// companion's fields is said left out and never read, the one of
// trajectories is read.
func TestFollowDecidesAHeldCompanion(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "step_0.jsonl"), idLines("a", 1))
	filtered := `{"step": 2, "filter_reason": "zero_std_reward", "sample_idx": 0, "reward": 0.0}` + "\n"
	companion := filepath.Join(dir, "r_filtered_rollouts_000000.jsonl")
	rollouts := filepath.Join(dir, "s_filtered_rollouts_000000.jsonl")
	writeText(t, companion, filtered[:40])
	writeText(t, rollouts, idLines("b", 1)[:10])
	f, state := newTestFollower(t, dir)
	if len(state.ids[companion]) > 0 || len(state.ids[rollouts]) > 0 {
		t.Fatalf("read cut in their first line: %v", state.ids)
	}
	writeText(t, companion, filtered)
	writeText(t, rollouts, idLines("b", 1))
	for _, path := range []string{companion, rollouts} {
		f.noteEvent(fsnotify.Event{Name: path, Op: fsnotify.Write})
	}
	f.checkDirty()
	var said []LeftOutFile
	for _, u := range takePending(f, state) {
		said = append(said, u.LeftOut...)
	}
	if len(said) != 1 || said[0].Path != companion || !strings.HasPrefix(said[0].Why, "the groups open-instruct filtered out") {
		t.Errorf("said left out %v, want %s as filtered rollouts", said, companion)
	}
	if got := state.ids[rollouts]; !slices.Equal(got, []string{"b0"}) {
		t.Errorf("the trajectories under a companion's name: read %v", got)
	}
	if got := state.ids[companion]; len(got) > 0 {
		t.Errorf("the companion read: %v", got)
	}
}
