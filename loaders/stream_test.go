package loaders

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
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
				res, serr := Stream(ps, opts, func(ts []scoring.Trajectory) error {
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
		_, err := Stream([]string{p}, Options{}, func([]scoring.Trajectory) error {
			calls++
			return fmt.Errorf("enough")
		})
		if err == nil || err.Error() != "enough" || calls != 1 {
			t.Errorf("%s: err %v after %d calls, want enough after 1", p, err, calls)
		}
	}
}

// TestStreamReusesMaps checks that the metadata maps Stream reuses hold
// nothing of the trajectories they held before: lines of ever other
// metadata, fewer keys, repeated keys, values the general path reads and,
// with SkipInvalid, errors after some metadata was read, read as Load
// reads them with maps of their own.
func TestStreamReusesMaps(t *testing.T) {
	var many []string // more than the 8 members a map keeps in one group
	for k := range 10 {
		many = append(many, fmt.Sprintf(`"o%d":%d`, k, k))
	}
	good := []string{
		`"metadata":{"a":1,"b":2,"c":3}`,
		`"metadata":{"c":"x","a":1}`,
		`"metadata":{"a":1}`,
		`"metadata":{}`,
		``, // no metadata
		`"metadata":null`,
		`"metadata":{"a":1,"a":2,"a":3}`,
		`"metadata":{"a":1,"\u0061":"x","b":true}`,
		`"metadata":{"b":[1],"b":2}`, // a bad value replaced: the general path
		`"metadata":{"a":NaN,"c":null}`,
		`"metadata":{` + strings.Join(many[:8], ",") + `}`,
		`"metadata":{` + strings.Join(many, ",") + `}`,
	}
	bad := []string{
		`"metadata":{"a":1,"b":2,"c":[3]}`,
		`"metadata":{"a":1,"b":2,"c":3},"batch":"x"`,
		`"metadata":{"a":1,"b":2,"c":`,
	}
	dir := t.TempDir()
	for _, skip := range []bool{false, true} {
		variants := good
		if skip {
			variants = append(slices.Clone(good), bad...)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		var jsonl, jsonArr, csv strings.Builder
		jsonArr.WriteString("[\n")
		csv.WriteString("id,metadata\n")
		for i := range 3 * input.StreamChunk {
			v := variants[rng.IntN(len(variants))]
			// A long response makes blocks of a few hundred lines, so that
			// the maps go back and forth many times.
			line := fmt.Sprintf(`{"id":"t%d","response":"%s"`, i, strings.Repeat("r", 300+rng.IntN(200)))
			if v != "" {
				line += "," + v
			}
			line += "}"
			jsonl.WriteString(line + "\n")
			if i > 0 {
				jsonArr.WriteString(",\n")
			}
			jsonArr.WriteString(line)
			cell := ""
			if m, ok := strings.CutPrefix(v, `"metadata":{`); ok {
				cell = `"{` + strings.ReplaceAll(m, `"`, `""`) + `"`
			}
			fmt.Fprintf(&csv, "t%d,%s\n", i, cell)
		}
		jsonArr.WriteString("\n]\n")
		for name, text := range map[string]string{"a.jsonl": jsonl.String(), "b.json": jsonArr.String(), "c.csv": csv.String()} {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if name == "b.json" && skip {
				continue // a syntax error ends a JSON array
			}
			opts := Options{SkipInvalid: skip}
			loaded, err := Load([]string{path}, opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var got []string
			res, err := Stream([]string{path}, opts, func(ts []scoring.Trajectory) error {
				got = append(got, briefs(&Result{Trajectories: ts})...)
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if want := briefs(loaded); !slices.Equal(got, want) || res.Skipped != loaded.Skipped {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("%s skip=%v: trajectory %d:\n got %s\nwant %s", name, skip, i, got[i], want[i])
					}
				}
				t.Fatalf("%s skip=%v: %d trajectories, %d skipped; Load %d, %d", name, skip, len(got), res.Skipped, len(want), loaded.Skipped)
			}
			if skip && name != "b.json" && res.Skipped == 0 {
				t.Errorf("%s: nothing skipped", name)
			}
			checkStreamPicked(t, path, opts, loaded)
		}
	}
}

// checkStreamPicked checks that Stream with a pick hands over the
// trajectories that Load reads, the JSONL lines that take the fast path
// (most) with their metadata picked, and asks for the pick once, with the
// first trajectory.
func checkStreamPicked(t *testing.T, path string, opts Options, loaded *Result) {
	t.Helper()
	pick := &scoring.Pick{Keys: []string{"a", "c", "o9", "b"}}
	var firsts []string
	opts.Pick = func(first *scoring.Trajectory) *scoring.Pick {
		firsts = append(firsts, brief(*first))
		return pick
	}
	i, picked := 0, 0
	_, err := Stream([]string{path}, opts, func(ts []scoring.Trajectory) error {
		for _, got := range ts {
			want := loaded.Trajectories[i]
			i++
			if got.Pick == nil {
				if brief(got) != brief(want) {
					t.Fatalf("%s: trajectory %d not picked:\n got %s\nwant %s", path, i-1, brief(got), brief(want))
				}
				continue
			}
			picked++
			md := want.Metadata
			want.Metadata, want.Response = nil, nil
			if got.Pick != pick || brief(got) != brief(want) {
				t.Fatalf("%s: trajectory %d picked:\n got %s\nwant %s", path, i-1, brief(got), brief(want))
			}
			for k, key := range pick.Keys {
				if g, w := got.Picked[k], pickedValue(md, key); g != w {
					t.Fatalf("%s: trajectory %d: key %q picked as %+v, want %+v", path, i-1, key, g, w)
				}
			}
		}
		return nil
	})
	switch {
	case err != nil:
		t.Fatalf("%s: %v", path, err)
	case i != len(loaded.Trajectories):
		t.Fatalf("%s: %d trajectories with a pick, Load %d", path, i, len(loaded.Trajectories))
	case len(firsts) != 1 || firsts[0] != brief(loaded.Trajectories[0]):
		t.Fatalf("%s: Pick called with %q, want once with %s", path, firsts, brief(loaded.Trajectories[0]))
	case strings.HasSuffix(path, ".jsonl") && picked < i/2:
		t.Fatalf("%s: %d of %d trajectories picked", path, picked, i)
	}
}
