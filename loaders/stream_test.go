package loaders

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
)

// streamInputs writes, into dir, inputs of every format large enough to
// span several blocks and stream chunks, with default IDs, blank lines, a
// repeated group, non-finite tokens and, when bad, malformed lines.
func streamInputs(t *testing.T, dir string, bad bool) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(4, 4))
	var jsonl, csv, jsonArr strings.Builder
	csv.WriteString("id,group,step_count,x,y\n")
	jsonArr.WriteString("[\n")
	for i := range 20_000 {
		id := fmt.Sprintf(`"id":"t%d",`, i)
		if i%3 == 0 {
			id = "" // the default: the position
		}
		x := fmt.Sprint(rng.Float64())
		if i%97 == 0 {
			x = "NaN"
		}
		line := fmt.Sprintf(`{%s"group":"g%d","step_count":%d,"response":"r %d","metadata":{"x":%s,"y":%d,"k\u00e9":"v"}}`,
			id, i/8, rng.IntN(5), i, x, rng.IntN(3))
		if bad && i%1001 == 500 {
			line = `{"group":` // malformed
		}
		if bad && i%1777 == 3 {
			line = `{"step_count":-1}` // a bad field
		}
		jsonl.WriteString(line + "\n")
		if i%50 == 0 {
			jsonl.WriteString("\n  \r\n")
		}
		jsonArr.WriteString(line)
		if i < 19_999 {
			jsonArr.WriteString(",\n")
		}
		cid := fmt.Sprintf("t%d", i)
		if i%3 == 0 {
			cid = ""
		}
		fmt.Fprintf(&csv, "%s,g%d,%d,%s,%d\n", cid, i/8, rng.IntN(5), x, rng.IntN(3))
	}
	jsonArr.WriteString("\n]\n")
	files := map[string]string{"a.jsonl": jsonl.String(), "b.csv": csv.String(), "c.json": jsonArr.String()}
	var paths []string
	for _, name := range []string{"a.jsonl", "b.csv", "c.json"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestStreamMatchesLoad checks that Stream hands over, in order, exactly
// the trajectories Load returns, with the same skips and errors.
func TestStreamMatchesLoad(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []bool{false, true} {
		paths := streamInputs(t, filepath.Join(dir), bad)
		for _, skip := range []bool{false, true} {
			for _, ps := range [][]string{paths, paths[:1], {paths[2], paths[0]}} {
				opts := Options{SkipInvalid: skip}
				loaded, lerr := Load(ps, opts)
				var got []string
				chunks := 0
				res, serr := Stream(ps, opts, func(ts []engine.Trajectory) error {
					// The metadata maps are only valid during the call.
					got = append(got, briefs(&Result{Trajectories: ts})...)
					chunks++
					return nil
				})
				name := fmt.Sprintf("bad=%v skip=%v %v", bad, skip, ps)
				if (lerr == nil) != (serr == nil) || (lerr != nil && lerr.Error() != serr.Error()) {
					t.Fatalf("%s: Load error %v, Stream error %v", name, lerr, serr)
				}
				if lerr != nil {
					continue
				}
				if len(res.Trajectories) != 0 || res.Skipped != loaded.Skipped ||
					!slices.EqualFunc(res.SkipReasons, loaded.SkipReasons, func(a, b *LineError) bool { return *a == *b }) {
					t.Fatalf("%s: Stream result %d trajectories, %d skipped; Load %d skipped", name, len(res.Trajectories), res.Skipped, loaded.Skipped)
				}
				want := briefs(loaded)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: Stream gave %d trajectories in %d chunks, Load %d, or they differ", name, len(got), chunks, len(want))
				}
				if chunks < 2 {
					t.Errorf("%s: %d chunks: the test does not cross a chunk boundary", name, chunks)
				}
			}
		}
	}
}

// TestStreamStopsOnError checks that an error from each ends the reading.
func TestStreamStopsOnError(t *testing.T) {
	paths := streamInputs(t, t.TempDir(), false)
	for _, p := range paths {
		calls := 0
		_, err := Stream([]string{p}, Options{}, func([]engine.Trajectory) error {
			calls++
			return fmt.Errorf("enough")
		})
		if err == nil || err.Error() != "enough" || calls != 1 {
			t.Errorf("%s: err %v after %d calls, want enough after 1", p, err, calls)
		}
	}
}
