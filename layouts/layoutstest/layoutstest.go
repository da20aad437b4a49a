// Package layoutstest reads runs as a trainer's layout does
// (layouts.Apply) for the tests of several packages.
package layoutstest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
)

// OpenInstructRun is a directory of open-instruct traces read with
// --from open-instruct.
type OpenInstructRun struct {
	// Path is the traces' file in Dir, a temporary directory: steps 1
	// and 2 of testkit.OpenInstructSteps, every group spread.
	Dir, Path string
	// Config and Sentence are what layouts.Apply makes of Dir.
	Config   setup.Config
	Sentence string
	// Fields are Config's record fields, by which more steps are read
	// (loaders.Options.Fields).
	Fields *scoring.RecordFields
	// Note is the layout's note of the run (layouts.RunNoteOf).
	Note *layouts.RunNote
}

// OpenInstruct writes an OpenInstructRun's traces and reads them as
// open-instruct's layout does, failing tb on an error.
func OpenInstruct(tb testing.TB) OpenInstructRun {
	tb.Helper()
	r := OpenInstructRun{Dir: tb.TempDir()}
	r.Path = filepath.Join(r.Dir, "run_rollouts_000000.jsonl")
	if err := os.WriteFile(r.Path, []byte(testkit.OpenInstructSteps(1, 2, 0)), 0o644); err != nil {
		tb.Fatal(err)
	}
	var err error
	r.Config, r.Sentence, _, err = layouts.Apply(context.Background(), setup.Config{From: "open-instruct"}, []string{r.Dir}, loaders.Options{}, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if r.Fields, err = scoring.NewRecordFields(r.Config.GroupBy, r.Config.BatchBy, r.Config.IDBy); err != nil {
		tb.Fatal(err)
	}
	if r.Note = layouts.RunNoteOf(r.Config); r.Note == nil {
		tb.Fatal("the open-instruct layout has no note of the run")
	}
	return r
}
