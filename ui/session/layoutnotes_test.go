package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/layouts/layoutstest"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestLayoutNotesJobJudgesTheRunOnce checks the layout's warnings of
// open-instruct traces a LayoutNotesJob computes against the layout's
// warnings with the note of the run among them (layouts.Warnings) and
// the note's withdrawal found batch by batch (layouts.RunNote.Of): the
// same warnings, the note shown or not alike, the same withdrawal; the
// job judging the run once.
func TestLayoutNotesJobJudgesTheRunOnce(t *testing.T) {
	run := layoutstest.OpenInstruct(t)
	cfg, path, fields, note := run.Config, run.Path, run.Fields, run.Note
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		from, to, zero int
		shown          bool
	}{
		{"every group spread", 1, 3, 0, true},
		{"step 3 of zero spread", 1, 4, 3, false},
		{"step 1 of zero spread", 1, 2, 1, false},
	} {
		read, err := loaders.Read(strings.NewReader(testkit.OpenInstructSteps(tc.from, tc.to, tc.zero)), path, 0, loaders.Options{Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		res := engine.Evaluate(c.Scorer, read.Trajectories).Compute(c.Options)
		all := make([]int, len(res.Ranking.Batches))
		for b := range all {
			all[b] = b
		}
		want := layouts.Warnings(cfg, scoring.Uncapped, nil)(res, all)
		wantShown := slices.ContainsFunc(want, func(w string) bool { return strings.HasPrefix(w, note.Text) })
		wantRefuted := ""
		if !wantShown {
			for bi := range res.Ranking.Batches {
				if note.Of(res, bi) == layouts.RunNoteRefuted {
					wantRefuted = note.Withdrawal(res.Ranking.Batches[bi].Step)
					break
				}
			}
		}
		judged := 0
		job := LayoutNotesJob{warnings: layouts.StepWarnings(cfg, scoring.Uncapped, nil), read: readAllButWeights,
			runNote: &RunNote{Judge: func(res *engine.Result) (string, string) {
				judged++
				return note.Judge(res)
			}}}
		n := job.Of(res)
		if !slices.Equal(n.Warnings, want) || n.noteShown != wantShown || n.refuted != wantRefuted {
			t.Errorf("%s: warnings %q (note shown %v), withdrawal %q\nwant %q (%v), %q", tc.name, n.Warnings, n.noteShown, n.refuted, want, wantShown, wantRefuted)
		}
		if wantShown != tc.shown || !tc.shown && wantRefuted == "" {
			t.Errorf("%s: the note shown %v, withdrawn by %q: the case is not what it says", tc.name, wantShown, wantRefuted)
		}
		if judged != 1 {
			t.Errorf("%s: the run judged %d times, want once", tc.name, judged)
		}
	}
}
