package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
)

// loggedLines returns the lines from to to of a run logged by Dr. GRPO
// (x - mean(x), unscaled), four rows a group, eight a step.
func loggedLines(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, `{"id":"t%d","group":"g%d","batch":%d,"metadata":{"x":%d,"adv":%g}}`+"\n", i, i/4, i/8, i%4, float64(i%4)-1.5)
	}
	return b.String()
}

// TestFollowFasterThanAScan: a run that grows twice before the layout's
// warnings and the count of the rows that differ from the log of its
// first update land has them shown as they land, each said to be of the
// rows it scanned, and the newest update's scanned next, shown unmarked.
// They were dropped, as of a result no longer shown: a run growing faster
// than a scan kept its first warnings forever. So too when the first
// update reads the file again: the warnings kept are then of the run
// before, which a scan of the run read again does not extend, and were
// kept forever.
func TestFollowFasterThanAScan(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from     int // the first update's rows, from from to 16
		reloaded bool
	}{
		{"appended", 8, false},
		{"read again", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) { followFasterThanAScan(t, tc.from, tc.reloaded) })
	}
}

// followFasterThanAScan is TestFollowFasterThanAScan with a first update
// of the rows from from to 16, the file read again when reloaded.
func followFasterThanAScan(t *testing.T, from int, reloaded bool) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(loggedLines(0, 8)), 0o644); err != nil {
		t.Fatal(err)
	}
	// The follow source reads the file, then gives only the updates the
	// test hands the dashboard.
	var pick func(*scoring.Trajectory) *scoring.Pick
	in := Input{Source: path, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		pick = hooks.Pick
		res, err := loaders.Stream([]string{path}, loaders.Options{Pick: hooks.Pick}, hooks.Each)
		return res, make(chan loaders.Update), err
	}}
	in.Config.LoggedAdvantage = "adv"
	in.Config.Method = "grpo"
	in.LayoutWarnings = func(scoring.RowCap, map[int64]string) func(*engine.Result, []int) []string {
		return func(res *engine.Result, _ []int) []string {
			return []string{fmt.Sprintf("scanned %d rows", res.Evaluation.N())}
		}
	}
	app := loadModel(t, in, 200)
	app.Settle() // the health known: an update computes it, and leaves the count to a job
	update := func(from, to int, reloaded bool) liveMsg {
		res, err := loaders.Read(strings.NewReader(loggedLines(from, to)), path, 0, loaders.Options{Pick: pick})
		if err != nil {
			t.Fatal(err)
		}
		u := loaders.Update{Trajectories: res.Trajectories}
		if reloaded {
			u.Reloaded = []string{path}
		}
		return liveMsg{u, true}
	}
	differ := func(n int) string {
		return fmt.Sprintf("%d of %d rows differ from the logged advantage", n, n)
	}
	warnings := func() string { return strings.Join(app.status.Warnings(), "\n") }

	app.Update(update(from, 16, reloaded))
	scan, count := app.layoutNext, app.live.counting
	if scan == nil || count == nil {
		t.Fatalf("the update started no scan (%v) or no count (%v)", scan != nil, count != nil)
	}
	app.Update(update(16, 24, false)) // before either lands
	if w := warnings(); !strings.Contains(w, "scanned 8 rows (as of 8 rows; counting again)") || strings.Count(w, "(as of 8 rows; counting again)") != 2 {
		t.Errorf("two updates on, the open's warnings are not said to be of its 8 rows:\n%s", w)
	}
	app.Update(scan())
	app.Update(count())
	w := warnings()
	for _, want := range []string{"scanned 16 rows (as of 16 rows; counting again)", differ(16)} {
		if !strings.Contains(w, want) {
			t.Errorf("the first update's scans landed after the second: the status line lacks %q:\n%s", want, w)
		}
	}
	if strings.Contains(w, "scanned 8 rows") || strings.Contains(w, differ(8)) {
		t.Errorf("the open's warnings stay:\n%s", w)
	}
	if app.layoutNext == nil || app.live.counting == nil {
		t.Fatalf("no scan (%v) or no count (%v) of the newest update once the first's landed", app.layoutNext != nil, app.live.counting != nil)
	}
	app.Settle()
	if w := warnings(); !strings.Contains(w, "scanned 24 rows") || !strings.Contains(w, differ(24)) || strings.Contains(w, "as of") {
		t.Errorf("once the newest update's scans landed:\n%s", w)
	}
}
