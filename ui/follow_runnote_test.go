package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/layouts/layoutstest"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestFollowOpenInstructFilteredWithdrawn: the dashboard following
// open-instruct traces whose first steps have no zero-spread group shows
// the layout's note that the filter dropped such groups; a later step
// with one (the filter was off) replaces it with the line that withdraws
// it, saying why, which stays as the run grows: the note never goes
// unsaid.
func TestFollowOpenInstructFilteredWithdrawn(t *testing.T) {
	run := layoutstest.OpenInstruct(t)
	dir, path, cfg, fields, note := run.Dir, run.Path, run.Config, run.Fields, run.Note
	// The follow source reads the file, then gives only the updates the
	// test hands the dashboard.
	var pick func(*scoring.Trajectory) *scoring.Pick
	in := Input{Source: dir, Config: cfg, Layout: run.Sentence,
		LayoutWarnings: func(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
			return layouts.StepWarnings(cfg, rowCap, linesLeftOut)
		},
		RunNote: &session.RunNote{Judge: note.Judge},
		Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
			pick = hooks.Pick
			res, err := loaders.Stream([]string{path}, loaders.Options{Fields: fields, Pick: hooks.Pick}, hooks.Each)
			return res, make(chan loaders.Update), err
		}}
	app := loadModel(t, in, 200)
	app.Settle()
	update := func(from, to, zero int) {
		t.Helper()
		res, err := loaders.Read(strings.NewReader(testkit.OpenInstructSteps(from, to, zero)), path, 0, loaders.Options{Fields: fields, Pick: pick})
		if err != nil {
			t.Fatal(err)
		}
		app.Update(liveMsg{loaders.Update{Trajectories: res.Trajectories}, true})
		app.Settle()
	}
	warnings := func() string { return strings.Join(app.status.Warnings(), "\n") }
	if w := warnings(); !strings.Contains(w, note.Text) || strings.Contains(w, "withdrawn") {
		t.Fatalf("steps 1 and 2 read, the note is not shown alone:\n%s", w)
	}
	withdrawal := "withdrawn (step 3 has a group of zero spread: filter_zero_std_samples was off): " + note.Text
	for _, step := range []int{3, 4} {
		update(step, step, 3)
		if w := warnings(); !strings.Contains(w, withdrawal) || strings.Count(w, note.Text) != 1 {
			t.Errorf("step %d read: the note is not withdrawn, once, saying why:\n%s", step, w)
		}
	}

	// Read with step 3 from the start, the note is never shown: nothing
	// to withdraw.
	if err := os.WriteFile(path, []byte(testkit.OpenInstructSteps(1, 3, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	app = loadModel(t, in, 200)
	app.Settle()
	if w := warnings(); strings.Contains(w, note.Text) {
		t.Errorf("read with step 3 at once, the note is said:\n%s", w)
	}
}
