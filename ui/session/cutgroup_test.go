package session

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestHealthLeavesOutTheCutGroup: a reading that --max-rows stopped one
// row into group k (groups g and h have two) agrees with the trainer's
// log but for k, whose group of one gets reward 0: the health checks,
// told by the reading (loaders.Result.Capped) and kept by SetHealth,
// do not grade k, so trainer_agreement finds nothing, nor zero_spread
// (1 of 2 groups all-equal, without k); read to its end, the same rows
// are graded, 1 of 5 differing (ALERT), 2 of 3 groups all-equal (WARN).
func TestHealthLeavesOutTheCutGroup(t *testing.T) {
	ts := cutReading()
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}, LoggedAdvantage: "metadata.adv"}
	for _, capped := range []bool{true, false} {
		s, err := Open("run.jsonl", cfg, &loaders.Result{Trajectories: slices.Clone(ts), Capped: capped}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetHealth(health.Config{}, nil); err != nil {
			t.Fatal(err)
		}
		settleHealth(s)
		var got, zero []health.Finding
		for _, f := range s.Findings() {
			switch f.Check {
			case health.CheckTrainerAgreement:
				got = append(got, f)
			case health.CheckZeroSpread:
				zero = append(zero, f)
			}
		}
		if capped == (len(zero) > 0) {
			t.Errorf("capped %v: zero_spread %+v", capped, zero)
		}
		switch {
		case capped && len(got) > 0:
			t.Errorf("capped: %+v, want no trainer_agreement", got)
		case !capped && (len(got) != 1 || got[0].Level != health.Alert || got[0].Value != 0.2):
			t.Errorf("read whole: %+v, want an ALERT of 1 row of 5", got)
		}
	}
}

// TestLoggedWarningCutGroup: on the reading of TestHealthLeavesOutTheCutGroup
// stopped by --max-rows, the status line's warning that the rewards differ
// from the log blames the group cut, not the trainer's settings, as the
// CLI's does: at the open (agreement.CheckTrainer's note), and after a
// change of settings (--scale none, under which g differs too), counted
// again by the health job.
func TestLoggedWarningCutGroup(t *testing.T) {
	ts := cutReading()
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}, LoggedAdvantage: "metadata.adv"}
	s, err := Open("run.jsonl", cfg, &loaders.Result{Trajectories: ts, Capped: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `1 of 5 rows differs from the logged advantage by more than 0.0001, all in the group --max-rows cut (step 0, group "k", 1 of its rows read): its rewards are computed without the rows not read; the other rows agree`
	if got := s.LoggedWarning(); got != want {
		t.Errorf("open: LoggedWarning() = %q, want %q", got, want)
	}
	s.Options.Scale = engine.ScaleNone
	s.Recompute()
	settleHealth(s)
	got := s.LoggedWarning()
	if want := `; the group --max-rows cut (step 0, group "k", 1 of its rows read) differs whatever the settings: compare without --max-rows`; !strings.HasPrefix(got, "3 of 5 rows differ") || !strings.HasSuffix(got, want) {
		t.Errorf("scale none: LoggedWarning() = %q, want 3 of 5 rows ending %q", got, want)
	}
}

// TestMatchLoggedCutGroup: on the reading of TestHealthLeavesOutTheCutGroup
// stopped by --max-rows, --match-logged finds no setting that reproduces
// the cut group k; its note, among the session's warnings, blames the cut
// as the CLI's does, not the trainer's settings.
func TestMatchLoggedCutGroup(t *testing.T) {
	ts := cutReading()
	match := true
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}, LoggedAdvantage: "metadata.adv", MatchLogged: &match}
	s, err := Open("run.jsonl", cfg, &loaders.Result{Trajectories: ts, Capped: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `--match-logged: 1 of 5 rows differs from the logged advantage by more than 0.0001, all in the group --max-rows cut (step 0, group "k", 1 of its rows read): its rewards are computed without the rows not read; the other rows agree; computing with the settings as given`
	if !slices.Contains(s.Warnings, want) || slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.Contains(w, "trainer settings tried") }) {
		t.Errorf("warnings %q, want %q", s.Warnings, want)
	}
}

// TestUnequalWarningCutGroup: in a trainer's layout (EqualGroups), a
// reading --max-rows stopped one row into group k (g and h have two) has
// no warning of groups of unequal size on the status line, as the CLI
// has none: k is the group cut. Read to its end, k is named.
func TestUnequalWarningCutGroup(t *testing.T) {
	var ts []scoring.Trajectory
	for _, g := range []string{"g", "g", "h", "h", "k"} {
		ts = append(ts, scoring.Trajectory{Group: g, Done: true, Metadata: map[string]any{"x": float64(len(ts))}})
	}
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}, EqualGroups: true}
	for _, capped := range []bool{true, false} {
		s, err := Open("run.jsonl", cfg, &loaders.Result{Trajectories: slices.Clone(ts), Capped: capped}, nil)
		if err != nil {
			t.Fatal(err)
		}
		unequal := slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.Contains(w, "unequal size") })
		if unequal == capped {
			t.Errorf("capped %v: warnings %q", capped, s.Warnings)
		}
	}
}

// cutReading is the reading of TestHealthLeavesOutTheCutGroup: groups g
// and h of two rows, k of one, read last, with the advantages grpo's
// defaults (sample std, epsilon 1e-4) give g and h whole, and k as if it
// had more rows.
func cutReading() []scoring.Trajectory {
	a := 1 / (math.Sqrt2 + 1e-4)
	rows := []struct {
		group  string
		x, adv float64
	}{{"g", 1, -a}, {"g", 3, a}, {"h", 5, 0}, {"h", 5, 0}, {"k", 1, -a}}
	var ts []scoring.Trajectory
	for _, r := range rows {
		ts = append(ts, scoring.Trajectory{Group: r.group, Done: true, Metadata: map[string]any{"x": r.x, "adv": r.adv}})
	}
	return ts
}

// TestRegradeChecksTheLogNoMore: the health graded again for a change of
// the provisional steps alone, while the session's logged-advantage
// warning is not of the result shown (a followed update's LoggedJob
// under way), grades the trends known and checks the log no more: that
// check, a scan of the whole run, is the LoggedJob's.
func TestRegradeChecksTheLogNoMore(t *testing.T) {
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}, LoggedAdvantage: "metadata.adv"}
	s, err := Open("run.jsonl", cfg, &loaders.Result{Trajectories: cutReading(), Capped: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	settleHealth(s)
	s.logged.n = -1 // the warning of fewer rows, as a followed update leaves it until its LoggedJob lands
	s.SetReadInPart(s.Result.Ranking.Batches[0].Step, "read in part")
	if s.HealthReady() {
		t.Fatal("a step read in part not graded again")
	}
	j := s.HealthJob()
	if !j.regrade {
		t.Fatal("the trends known computed again for a change of the provisional steps")
	}
	if j.logged != nil {
		t.Error("the regrading job checks the log again, a scan of the whole run its LoggedJob makes")
	}
}
