package loaders

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// reloggedBatches returns the batches of the trajectories, each once, in
// order.
func reloggedBatches(ts []scoring.Trajectory) []int64 {
	var out []int64
	for _, t := range ts {
		if len(out) == 0 || out[len(out)-1] != t.Batch {
			out = append(out, t.Batch)
		}
	}
	return out
}

// TestRelogged: TRL with num_iterations 2 and logging_steps 1 writes each
// generation's rows at two steps (the num_iterations_2 fixture, written
// by TRL's own code): with RelogField, Load and Stream leave out steps 2
// and 4, which repeat 1 and 3 row for row, and name them; without it,
// every step is read.
func TestRelogged(t *testing.T) {
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "cmd", "testdata", "trl", "num_iterations_2", "completions")
	opts := Options{Fields: fields, RelogField: "step"}
	res, err := Load([]string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := reloggedBatches(res.Trajectories); !slices.Equal(got, []int64{1, 3}) || len(res.Trajectories) != 32 {
		t.Errorf("Load: batches %v (%d trajectories), want 1, 3 (32)", got, len(res.Trajectories))
	}
	want := "steps 2, 4 repeat the rollouts logged at steps 1, 3: TRL logs a generation again until the next one (num_iterations / steps_per_generation); left out (" +
		filepath.Join(dir, "completions_00002.parquet") + ", " + filepath.Join(dir, "completions_00004.parquet") + ")"
	if got := res.ReloggedWarning(); got != want {
		t.Errorf("warning %q, want %q", got, want)
	}
	var streamed []scoring.Trajectory
	sres, err := Stream([]string{dir}, opts, func(ts []scoring.Trajectory) error {
		streamed = append(streamed, ts...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := reloggedBatches(streamed); !slices.Equal(got, []int64{1, 3}) || sres.ReloggedWarning() != want {
		t.Errorf("Stream: batches %v, warning %q", got, sres.ReloggedWarning())
	}
	opts.RelogField = ""
	if res, err = Load([]string{dir}, opts); err != nil || len(res.Trajectories) != 64 || res.ReloggedWarning() != "" {
		t.Errorf("without RelogField: %d trajectories, warning %q, error %v", len(res.Trajectories), res.ReloggedWarning(), err)
	}
}

// TestReloggedPartly: an input is left out only when every record
// repeats the one before's, in order, but for the relog field: one value
// changed, one record more or fewer, or the records in another order keep
// it; an input that repeats one left out repeats the first (step 1), and
// the records Stream held while they matched are handed on whole, in
// order, once one differs. A repeat of an input read before another is
// not one.
func TestReloggedPartly(t *testing.T) {
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	rows := func(step int, values ...string) string {
		var b strings.Builder
		for i, v := range values {
			fmt.Fprintf(&b, `{"step": %d, "prompt": "p%d", "completion": "c%d", "reward": %s}`+"\n", step, i/2, i, v)
		}
		return b.String()
	}
	dir := t.TempDir()
	files := []string{
		rows(1, "1", "0", "0.5", "NaN"),
		rows(2, "1", "0", "0.5", "NaN"), // repeats 1
		rows(3, "1", "0", "0.5", "NaN"), // repeats 1 again
		rows(4, "1", "0", "0.5", "0"),   // the last differs
		rows(5, "1", "0", "0.5"),        // one fewer
		rows(6, "1", "0", "0.5", "0"),   // repeats 4, not 5
		rows(7, "0", "1", "0.5", "0"),   // another order
	}
	var paths []string
	for i, text := range files {
		path := filepath.Join(dir, fmt.Sprintf("completions_%05d.jsonl", i+1))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	var streamed []scoring.Trajectory
	res, err := Stream(paths, Options{Fields: fields, RelogField: "step"}, func(ts []scoring.Trajectory) error {
		for _, tr := range ts {
			tr.Metadata = map[string]any{"completion": tr.Metadata["completion"]}
			streamed = append(streamed, tr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reloggedBatches(streamed), []int64{1, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Errorf("batches %v, want %v", got, want)
	}
	var want []string
	for _, n := range []int{4, 4, 3, 4, 4} {
		for i := range n {
			want = append(want, fmt.Sprintf("c%d", i))
		}
	}
	var got []string
	for _, tr := range streamed {
		got = append(got, tr.Metadata["completion"].(string))
	}
	if !slices.Equal(got, want) {
		t.Errorf("completions %v, want %v", got, want)
	}
	if got := res.ReloggedWarning(); !strings.HasPrefix(got, "steps 2, 3 repeat the rollouts logged at step 1: ") {
		t.Errorf("warning %q", got)
	}
}

// TestFollowRelogged: Follow leaves out, as Load does, the TRL tables that
// repeat the one read before them (the num_iterations_2 fixture): step 2
// in the first reading (Result.Relogged), streamed or not, and step 4,
// whose file appears while following after step 3's (Update.Relogged);
// step 3 is read. It counted them twice.
func TestFollowRelogged(t *testing.T) {
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join("..", "cmd", "testdata", "trl", "num_iterations_2", "completions")
	for _, streamed := range []bool{false, true} {
		t.Run(fmt.Sprint("streamed=", streamed), func(t *testing.T) {
			dir := t.TempDir()
			testkit.CopyWhole(t, fixture, dir, "completions_00001.parquet")
			testkit.CopyWhole(t, fixture, dir, "completions_00002.parquet")
			opts := followOptions(false)
			opts.Options = Options{Fields: fields, RelogField: "step"}
			var read []scoring.Trajectory
			if streamed {
				opts.Each = func(ts []scoring.Trajectory) error {
					read = append(read, ts...)
					return nil
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			res, ch, err := Follow(ctx, []string{dir}, opts)
			if err != nil {
				t.Fatal(err)
			}
			read = append(read, res.Trajectories...)
			if got := reloggedBatches(read); !slices.Equal(got, []int64{1}) || len(res.Relogged) != 1 || res.Relogged[0].Step != 2 {
				t.Errorf("first reading: batches %v, relogged %+v; want 1, step 2 left out", got, res.Relogged)
			}
			testkit.CopyWhole(t, fixture, dir, "completions_00003.parquet")
			testkit.CopyWhole(t, fixture, dir, "completions_00004.parquet")
			var relogged []Relogged
			awaitUpdates(t, ch, "steps 3 and 4", func(u Update) {
				read = append(read, u.Trajectories...)
				relogged = append(relogged, u.Relogged...)
			}, func() bool { return len(relogged) > 0 }, func() string {
				return fmt.Sprintf("batches %v", reloggedBatches(read))
			})
			if got := reloggedBatches(read); !slices.Equal(got, []int64{1, 3}) || len(read) != 32 {
				t.Errorf("batches %v (%d trajectories), want 1, 3 (32)", got, len(read))
			}
			want := []Relogged{{Path: filepath.Join(dir, "completions_00004.parquet"), Step: 4, OfStep: 3}}
			if !slices.Equal(relogged, want) {
				t.Errorf("relogged %+v, want %+v", relogged, want)
			}
			cancel()
			for range ch {
			}
		})
	}
}

// TestFollowReloggedFirstReadingLater: TRL's step 4 (num_iterations 2),
// a relog of step 3, appears in a followed directory and its first
// reading brings no rows: it failed as the file changed under it (a
// footer being written, retried unsaid), or found a Parquet file without
// its footer yet. The reading that brings its rows at the next check
// leaves them out all the same, and says so; they were read as new.
func TestFollowReloggedFirstReadingLater(t *testing.T) {
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join("..", "cmd", "testdata", "trl", "num_iterations_2", "completions")
	step4, err := os.ReadFile(filepath.Join(fixture, "completions_00004.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		// first writes the new file at path as its first reading finds it.
		first func(t *testing.T, path string)
		// changedReadings are the readings of it that failed so (1: it
		// changed under its first).
		changedReadings int
	}{
		{"changed while read", func(t *testing.T, path string) {
			if err := os.WriteFile(path, step4, 0o644); err != nil {
				t.Fatal(err)
			}
			setAfterStat(t, func(at string) {
				if at == path {
					afterStat = nil
					if err := os.Truncate(path, int64(len(step4)-8)); err != nil {
						t.Error(err)
					}
				}
			})
		}, 1},
		{"no footer yet", func(t *testing.T, path string) {
			if err := os.WriteFile(path, step4[:len(step4)-8], 0o644); err != nil {
				t.Fatal(err)
			}
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, name := range []string{"completions_00001.parquet", "completions_00002.parquet", "completions_00003.parquet"} {
				testkit.CopyWhole(t, fixture, dir, name)
			}
			// Follow's follower, driven check by check.
			f := &follower{opts: FollowOptions{Options: Options{Fields: fields, RelogField: "step"}}, byPath: map[string]*followedFile{}, dirty: map[string]bool{}, leftOutSaid: map[string]bool{}}
			f.relog = newRelogCheck("step", false)
			res, err := f.start([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(f.close)
			read := slices.Clone(res.Trajectories)
			path := filepath.Join(dir, "completions_00004.parquet")
			tc.first(t, path)
			f.scanDirs()
			if got := f.byPath[path].changedReadings; got != tc.changedReadings {
				t.Fatalf("the first reading of step 4: %d changed readings, want %d", got, tc.changedReadings)
			}
			var relogged []Relogged
			for _, u := range f.pending {
				relogged = append(relogged, u.Relogged...)
				if len(u.Trajectories) > 0 || u.Err() != nil {
					t.Fatalf("the first reading of step 4 brings %d rows, error %v", len(u.Trajectories), u.Err())
				}
			}
			f.pending = nil
			if err := os.WriteFile(path, step4, 0o644); err != nil {
				t.Fatal(err)
			}
			f.checkAll()
			for _, u := range f.pending {
				read = append(read, u.Trajectories...)
				relogged = append(relogged, u.Relogged...)
				if u.Err() != nil {
					t.Errorf("step 4 read: %v", u.Err())
				}
			}
			if got := reloggedBatches(read); !slices.Equal(got, []int64{1, 3}) {
				t.Errorf("batches %v, want 1, 3 (step 4 left out as step 2 is)", got)
			}
			want := []Relogged{{Path: path, Step: 4, OfStep: 3}}
			if !slices.Equal(relogged, want) {
				t.Errorf("relogged %+v, want %+v", relogged, want)
			}
		})
	}
}
