package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/statusline"
)

// TestFollowLaterCutStepSaidCut: a TRL step file caught mid-line after
// the dashboard opened has its short group said as cut by the unfinished
// line, as for the same file read at the open, not as evaluation rows:
// the layout's warnings follow the unfinished lines as they change.
func TestFollowLaterCutStepSaidCut(t *testing.T) {
	src := filepath.Join("..", "cmd", "testdata", "trl_partial", "completions")
	dir := t.TempDir()
	for _, name := range []string{"completions_00001.jsonl"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, sentence, _, err := layouts.Apply(ctx, setup.Config{}, []string{dir}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fields, err := scoring.NewRecordFields(cfg.GroupBy, cfg.BatchBy, cfg.IDBy)
	if err != nil {
		t.Fatal(err)
	}
	in := followInput(ctx, dir, loaders.Options{Fields: fields})
	in.Config, in.Layout = cfg, sentence
	in.LayoutWarnings = func(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
		return layouts.StepWarnings(cfg, rowCap, linesLeftOut)
	}
	app := loadModel(t, in, 120)
	// Step 2 comes whole but for its last line, without its line end
	// (the fixture's file ends so): renamed into place, read at once.
	two, err := os.ReadFile(filepath.Join(src, "completions_00002.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, ".completions_00002.jsonl.tmp")
	if err := os.WriteFile(tmp, two, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "completions_00002.jsonl")); err != nil {
		t.Fatal(err)
	}
	// Bounded, so that a line never said unended fails the test rather
	// than hang it.
	deadline := time.After(time.Minute)
	for len(app.live.unended) == 0 {
		select {
		case u, ok := <-app.live.updates:
			if !ok {
				t.Fatal("following ended before step 2's last line was said unended")
			}
			app.Update(liveMsg{u, ok})
		case <-deadline:
			t.Fatal("step 2's last line, without its line end, not said unended within a minute")
		}
	}
	app.Settle()
	var line statusline.Line
	line.Refresh(app.Session())
	got := line.View(common.NewStyles(true, true), 4000)
	if !strings.Contains(got, "is short of the row the reading left out after it") {
		t.Errorf("step 2's group cut by its file's unfinished line not said so while following:\n%s", got)
	}
	if strings.Contains(got, "probably evaluation rows") {
		t.Errorf("step 2's group cut by its file's unfinished line said as evaluation rows:\n%s", got)
	}
	cancel()
	drain(app)
}
