package cmd

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/ui"
	"github.com/rewardlens/rewardlens/ui/session"
)

// trlWeightsChangedWarning is the warning of reward_weights_changed's
// tables: the weights read from the first, [2, 0.5], against the second's
// [4, 1].
func trlWeightsChangedWarning() string {
	dir := trlFixture("reward_weights_changed")
	return "the weights read from " + filepath.Join(dir, "completions_00001.parquet") + " (accuracy_reward 2, format_reward 0.5) are not those that the logged advantage of other files tells, " +
		filepath.Join(dir, "completions_00002.parquet") + "'s being accuracy_reward 4, format_reward 1 ("
}

// TestTRLWeightsOfEachTableFollowed: stats --follow checks the weights
// read from the first table against the rows of the others its first
// reading reads, and says so on stderr.
func TestTRLWeightsOfEachTableFollowed(t *testing.T) {
	f := startFollowing(t, "stats", "--follow", trlFixture("reward_weights_changed"))
	f.awaitErr(t, "rewardlens: warning: "+trlWeightsChangedWarning())
}

// TestTRLWeightsOfEachTableShown: the dashboard's layout warnings, the
// status line's, hold the check of the weights read from the first
// table against the rows of the others its load read; one run's tables
// give none.
func TestTRLWeightsOfEachTableShown(t *testing.T) {
	shown := func(dir string) []string { return dashboardLayoutWarnings(t, dir) }
	said := func(w string) bool { return strings.HasPrefix(w, trlWeightsChangedWarning()) }
	if ws := shown(trlFixture("reward_weights_changed")); !slices.ContainsFunc(ws, said) {
		t.Errorf("the dashboard's layout warnings %q lack %q", ws, trlWeightsChangedWarning())
	}
	for _, w := range shown(trlFixture("reward_weights_steps")) {
		if strings.Contains(w, "are not those that the logged advantage of other files tells") {
			t.Errorf("one run's tables: %q", w)
		}
	}
}

// dashboardLayoutWarnings opens the dashboard on args, as the program
// does but for the screen: its session built from the load, and returns
// its layout warnings (the status line's) over every batch.
func dashboardLayoutWarnings(t *testing.T, args ...string) []string {
	t.Helper()
	var warnings []string
	defer func(saved func(context.Context, ui.Input) error) { runUI = saved }(runUI)
	runUI = func(_ context.Context, in ui.Input) error {
		b := session.NewBuilder(in.Config, true)
		res, err := in.Stream(ui.StreamHooks{Pick: b.Pick, Each: b.Add})
		if err != nil {
			return err
		}
		s := b.Session(in.Source, res, nil)
		warnings = in.LayoutWarnings(scoring.Uncapped, nil)(s.Result, allBatches(s.Result))
		return nil
	}
	if _, errOut, code := run(t, "", args...); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	return warnings
}
