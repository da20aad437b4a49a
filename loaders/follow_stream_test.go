package loaders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testfile"
)

// placed is brief with where the record starts and its format: what
// Reread needs.
func placed(t scoring.Trajectory) string {
	return fmt.Sprintf("%s offset=%d format=%q", brief(t), t.Offset, t.Format)
}

// followState is what a consumer of Follow holds: the trajectories loaded
// from each file, described, after applying every Update as documented.
type followState map[string][]string

func (s followState) apply(u Update) {
	for _, p := range u.Reloaded {
		delete(s, p)
	}
	for _, t := range u.Trajectories {
		s[t.Source] = append(s[t.Source], placed(t))
	}
}

// await applies the updates of ch to s until done holds, failing t after
// a timeout.
func (s followState) await(t *testing.T, ch <-chan Update, what string, done func() bool) {
	t.Helper()
	awaitUpdates(t, ch, what, s.apply, done, func() string { return fmt.Sprintf("%d files loaded", len(s)) })
}

// TestFollowEach checks that Follow with Each hands over, in order and
// in several chunks, exactly the trajectories that Follow without it
// returns, where Reread reads them again, with the same skipped lines;
// and that the Updates that come next are the same: for a JSONL file of
// many blocks (a byte order mark first, a malformed line, a partial last
// line) that grows, a CSV file that changes, and a directory of files of
// every format in which a file grows and another appears.
func TestFollowEach(t *testing.T) {
	defer goleak.VerifyNone(t)
	inputs := streamInputs(t, t.TempDir(), false)
	text := make([][]byte, len(inputs))
	for i, p := range inputs {
		var err error
		if text[i], err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	jsonl, csv, json := text[0], text[1], text[2]
	half := len(jsonl) / 2
	half += slices.Index(jsonl[half:], '\n') + 1
	cases := []struct {
		name  string
		files map[string][]byte
		// follow names what is followed, "" for the directory.
		follow string
		// change changes the inputs in dir once followed; then every
		// file's last trajectory has the id last[file].
		change func(t *testing.T, dir string)
		last   map[string]string
	}{
		{
			name: "jsonl",
			files: map[string][]byte{"run.jsonl": slices.Concat([]byte("\ufeff"), jsonl[:half], []byte("{bad\n"), jsonl[half:],
				[]byte(`{"id":"par`))},
			follow: "run.jsonl",
			change: func(t *testing.T, dir string) {
				// More lines than a chunk: none goes to Each.
				testfile.Append(t, filepath.Join(dir, "run.jsonl"), `tial"}`+"\n"+idLines("n", 9000))
			},
			last: map[string]string{"run.jsonl": "n8999"},
		},
		{
			name:   "csv",
			files:  map[string][]byte{"run.csv": csv},
			follow: "run.csv",
			change: func(t *testing.T, dir string) {
				testfile.Append(t, filepath.Join(dir, "run.csv"), "z0,g,1,0.5,2\n")
			},
			last: map[string]string{"run.csv": "z0"},
		},
		{
			name:  "directory",
			files: map[string][]byte{"a.jsonl": jsonl, "b.csv": csv, "c.json": json, "d.jsonl.gz": gzipped(idLines("d", 3)), "e.jsonl": nil},
			change: func(t *testing.T, dir string) {
				testfile.Append(t, filepath.Join(dir, "a.jsonl"), idLines("n", 2))
				if err := os.WriteFile(filepath.Join(dir, "f.jsonl"), []byte(idLines("f", 2)), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			last: map[string]string{"a.jsonl": "n1", "f.jsonl": "f1"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			paths := []string{dir}
			if c.follow != "" {
				paths = []string{filepath.Join(dir, c.follow)}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := FollowOptions{Options: Options{SkipInvalid: true}, Poll: 5 * time.Millisecond, NoWatch: true}
			whole, wholeCh, err := Follow(ctx, paths, opts)
			if err != nil {
				t.Fatal(err)
			}
			want := followState{}
			want.apply(Update{Trajectories: whole.Trajectories})

			got, chunks := followState{}, 0
			var returned atomic.Bool
			opts.Each = func(ts []scoring.Trajectory) error {
				if returned.Load() {
					t.Error("Each called after Follow returned")
				}
				chunks++
				got.apply(Update{Trajectories: ts})
				for i := 0; i < len(ts); i += 997 {
					if ts[i].Format == "" {
						continue
					}
					again, err := Reread(&ts[i], nil)
					if err != nil {
						return err
					}
					if placed(again) != placed(ts[i]) {
						return fmt.Errorf("%s read again: %s", placed(ts[i]), placed(again))
					}
				}
				return nil
			}
			streamed, ch, err := Follow(ctx, paths, opts)
			returned.Store(true)
			if err != nil {
				t.Fatal(err)
			}
			if streamed.Trajectories != nil || streamed.Skipped != whole.Skipped ||
				!slices.EqualFunc(streamed.SkipReasons, whole.SkipReasons, func(a, b *LineError) bool { return *a == *b }) {
				t.Fatalf("Each: %d trajectories, skipped %d %v; without: skipped %d %v",
					len(streamed.Trajectories), streamed.Skipped, streamed.SkipReasons, whole.Skipped, whole.SkipReasons)
			}
			if c.name == "jsonl" && whole.Skipped != 1 {
				t.Errorf("skipped %d lines, want the malformed one", whole.Skipped)
			}
			if chunks < 2 {
				t.Errorf("%d chunks: the test does not cross a chunk boundary", chunks)
			}
			checkSameState(t, "first reading", got, want)

			c.change(t, dir)
			for _, s := range []struct {
				state followState
				ch    <-chan Update
			}{{want, wholeCh}, {got, ch}} {
				s.state.await(t, s.ch, "the change", func() bool {
					for name, id := range c.last {
						d := s.state[filepath.Join(dir, name)]
						if len(d) == 0 || !strings.HasPrefix(d[len(d)-1], fmt.Sprintf("id=%q ", id)) {
							return false
						}
					}
					return true
				})
			}
			checkSameState(t, "after the change", got, want)
			cancel()
			for range wholeCh {
			}
			for range ch {
			}
		})
	}
}

// checkSameState fails t unless got and want are the same.
func checkSameState(t *testing.T, when string, got, want followState) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: trajectories of %d files with Each, %d without", when, len(got), len(want))
	}
	for name, w := range want {
		g := got[name]
		for i := range max(len(g), len(w)) {
			if i >= len(g) || i >= len(w) || g[i] != w[i] {
				t.Fatalf("%s: %s: %d trajectories with Each, %d without; the first that differs, %d:\n%s\n%s",
					when, name, len(g), len(w), i, at(g, i), at(w, i))
			}
		}
	}
}

// at returns s[i], or "none" past its end.
func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "none"
}

// TestFollowEachError checks that an error from Each stops Follow, which
// returns it as is, and leaves no goroutine behind.
func TestFollowEachError(t *testing.T) {
	defer goleak.VerifyNone(t)
	dir := t.TempDir()
	streamInputs(t, dir, false)
	enough := errors.New("enough")
	for _, paths := range [][]string{{filepath.Join(dir, "a.jsonl")}, {filepath.Join(dir, "b.csv")}, {dir}} {
		calls := 0
		res, ch, err := Follow(context.Background(), paths, FollowOptions{Each: func([]scoring.Trajectory) error {
			calls++
			return enough
		}})
		if err != enough || res != nil || ch != nil || calls != 1 {
			t.Errorf("%v: %v, %v, %v after %d calls; want enough after 1", paths, res, ch, err, calls)
		}
	}
}
