package cmd

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui"
	"github.com/rewardlens/rewardlens/ui/session"
)

// What verl computes and rewardlens does not reproduce, warned of: the V1
// trainer's sessions of several outputs under grpo
// (compute_advantage_for_multi_trajectories) and verl's gdpo
// (compute_gdpo_outcome_advantage). The fixtures v1_multi and gdpo hold
// verl's own advantages (scripts/gen_verl_fixtures.py), by which the
// tests check that the warnings are not said in vain.

// verlSessionsWarning is how the warning of v1_multi's sessions starts:
// 4 sessions of several outputs in step 1, 1 in step 2.
const verlSessionsWarning = "verl V1 multi-output sessions: 5 sessions with more than one output (step 1, session "

// verlMultiSessionGroups returns the groups of recs (a V1 dump's, the id
// its key "{uid}_{session}_{index}") that have a session of more than one
// output, by step and group, as read of the ids.
func verlMultiSessionGroups(t *testing.T, recs []record) map[string]bool {
	t.Helper()
	multi := map[string]bool{}
	for _, r := range recs {
		parts := strings.Split(r.ID, "_")
		if len(parts) != 3 || parts[0] != r.Group {
			t.Fatalf("id %q, group %q: not a V1 key of its group", r.ID, r.Group)
		}
		if parts[2] != "0" {
			multi[fmt.Sprint(r.Batch, r.Group)] = true
		}
	}
	return multi
}

// TestVerlV1MultiOutputSessionsWarned: under grpo, compute and stats
// (with --health) warn of the sessions of more than one output, naming
// their count; the rows of the groups without such a session are verl's
// advantages, and those of the groups with one are not all verl's. Under
// rloo, which verl computes on every output as here, and on a dump of
// one output a session, nothing is said.
func TestVerlV1MultiOutputSessionsWarned(t *testing.T) {
	recs, errOut := computeList(t, "", verlSetting("v1_multi"))
	if !strings.Contains(errOut, "rewardlens: warning: "+verlSessionsWarning) {
		t.Errorf("compute's stderr lacks %q:\n%s", verlSessionsWarning, errOut)
	}
	want := verlAdvantages(t, "v1_multi")
	multi := verlMultiSessionGroups(t, recs)
	if len(multi) != 3 {
		t.Fatalf("%d groups with a session of several outputs, want the fixture's 3: %v", len(multi), multi)
	}
	skip := map[int]bool{}
	off := 0
	for i, r := range recs {
		if multi[fmt.Sprint(r.Batch, r.Group)] {
			skip[i] = true
			if math.Abs(r.Reward-want[i]) > verlExact {
				off++
			}
		}
	}
	checkVerlRewards(t, recs, want, skip)
	if off == 0 {
		t.Error("the groups with sessions of several outputs give verl's advantages: the warning says so in vain")
	}
	for _, args := range [][]string{{"stats", "--health"}, {"stats"}} {
		_, errOut, code := run(t, "", append(args, verlSetting("v1_multi"))...)
		if code != 0 || !strings.Contains(errOut, verlSessionsWarning) {
			t.Errorf("%v: status %d, stderr lacks %q:\n%s", args, code, verlSessionsWarning, errOut)
		}
	}
	for _, c := range []struct{ setting, method string }{{"v1_multi", "rloo"}, {"v1_uid", "grpo"}} {
		_, errOut := computeList(t, "", "--method", c.method, verlSetting(c.setting))
		if strings.Contains(errOut, "multi-output sessions") {
			t.Errorf("%s under %s: %s", c.setting, c.method, errOut)
		}
	}
}

// TestVerlV1MultiOutputSessionsFollowed: stats --follow says the
// warning with the line of the step of such sessions.
func TestVerlV1MultiOutputSessionsFollowed(t *testing.T) {
	f := startFollowing(t, "stats", "--follow", verlSetting("v1_multi"))
	f.awaitErr(t, "verl V1 multi-output sessions: 4 sessions with more than one output (step 1, session ")
	f.awaitErr(t, "verl V1 multi-output sessions: 1 session with more than one output (step 2, session ")
}

// TestVerlV1MultiOutputSessionsFollowedAsWritten: a step written while
// stats --follow runs gets the warning of its sessions with its line, as
// one of the first reading does (the rows of the updates were not looked
// at).
func TestVerlV1MultiOutputSessionsFollowedAsWritten(t *testing.T) {
	shortQuiet(t)
	dir := t.TempDir()
	copyVerlDump(t, "v1_multi", "1.jsonl", dir)
	f := startFollowing(t, "stats", "--follow", dir)
	f.awaitErr(t, "verl V1 multi-output sessions: 4 sessions with more than one output (step 1, session ")
	copyVerlDump(t, "v1_multi", "2.jsonl", dir)
	f.awaitErr(t, "verl V1 multi-output sessions: 1 session with more than one output (step 2, session ")
}

// copyVerlDump writes the file name of the verl fixture setting's dump
// into dir, whole.
func copyVerlDump(t *testing.T, setting, name, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(verlSetting(setting), name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerlV1MultiOutputSessionsShown: the dashboard's layout warnings,
// the status line's, hold the sessions of the rows its load read.
func TestVerlV1MultiOutputSessionsShown(t *testing.T) {
	warnings := dashboardLayoutWarnings(t, verlSetting("v1_multi"))
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.HasPrefix(w, verlSessionsWarning) }) {
		t.Errorf("the dashboard's layout warnings %q lack %q", warnings, verlSessionsWarning)
	}
}

// TestVerlV1MultiOutputSessionsShownAsWritten: following, the
// dashboard's layout warnings (the status line's) hold the sessions of a
// step written after it opened, as applied from its updates.
func TestVerlV1MultiOutputSessionsShownAsWritten(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	dir := t.TempDir()
	copyVerlDump(t, "v1_multi", "1.jsonl", dir)
	const bothSteps = "verl V1 multi-output sessions: 5 sessions with more than one output"
	var before, after []string
	defer func(saved func(context.Context, ui.Input) error) { runUI = saved }(runUI)
	runUI = func(_ context.Context, in ui.Input) error {
		b := session.NewBuilder(in.Config, true)
		b.Follow()
		res, updates, err := in.Follow(ui.StreamHooks{Pick: b.Pick, Each: b.Add})
		if err != nil {
			return err
		}
		s := b.Session(in.Source, res, nil)
		followed := live.NewOf(s.Computer.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
		warnings := func() []string { return in.LayoutWarnings(scoring.Uncapped, nil)(s.Result, allBatches(s.Result)) }
		before = warnings()
		copyVerlDump(t, "v1_multi", "2.jsonl", dir)
		for deadline := time.After(10 * time.Second); s.Trajectories.Len() < 27; {
			select {
			case u := <-updates:
				s.ApplyUpdate(followed, u)
			case <-deadline:
				return fmt.Errorf("%d rows read after 10 s, want the dump's 27", s.Trajectories.Len())
			}
		}
		after = warnings()
		return nil
	}
	if _, errOut, code := run(t, "", "--follow", dir); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	hasPrefix := func(ws []string, prefix string) bool {
		return slices.ContainsFunc(ws, func(w string) bool { return strings.HasPrefix(w, prefix) })
	}
	if !hasPrefix(before, "verl V1 multi-output sessions: 4 sessions") {
		t.Errorf("step 1 read: the layout warnings %q lack step 1's sessions", before)
	}
	if !hasPrefix(after, bothSteps) {
		t.Errorf("step 2 written: the layout warnings %q lack %q", after, bothSteps)
	}
}

// TestVerlGDPOWarned: gdpo on a verl dump is warned of in compute and
// stats, naming verl's group of one and its whitening over tokens; the
// fixture's rewards are not verl's (its group of one, 0 here, is not 0
// there). Under grpo nothing is said of gdpo.
func TestVerlGDPOWarned(t *testing.T) {
	const want = "rewardlens: warning: verl's gdpo (compute_gdpo_outcome_advantage) is not the gdpo computed here (TRL's normalize_then_sum): verl z-scores each objective in its group as its grpo does, a group of one at mean 0 and std 1"
	objectives := []string{"--objective", "accuracy_reward=accuracy_reward", "--objective", "format_reward=format_reward"}
	recs, errOut := computeList(t, "", slices.Concat([]string{"--method", "gdpo"}, objectives, []string{verlSetting("gdpo")})...)
	if !strings.Contains(errOut, want) {
		t.Errorf("compute's stderr lacks %q:\n%s", want, errOut)
	}
	verl := verlAdvantages(t, "gdpo")
	if len(recs) != len(verl) {
		t.Fatalf("%d records, verl has %d advantages", len(recs), len(verl))
	}
	if recs[0].Reward != 0 || verl[0] == 0 {
		t.Errorf("the group of one: reward %g, verl's %g: want 0 here and verl's not", recs[0].Reward, verl[0])
	}
	_, errOut, code := run(t, "", slices.Concat([]string{"stats", "--method", "gdpo"}, objectives, []string{verlSetting("gdpo")})...)
	if code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("stats: status %d, stderr lacks %q:\n%s", code, want, errOut)
	}
	if _, errOut := computeList(t, "", verlSetting("gdpo")); strings.Contains(errOut, "verl's gdpo") {
		t.Errorf("under grpo: %s", errOut)
	}
}

// TestCheckedUpdatesFileReadAgain: the dashboard's sessions of a followed
// file read again are those of its new rows once they come; an update
// that empties it keeps the old ones meanwhile, as the dashboard keeps
// its rows (ui's refilled).
func TestCheckedUpdatesFileReadAgain(t *testing.T) {
	sessions := layouts.NewVerlSessions(setup.Config{From: "verl", IDBy: "uid"})
	if sessions == nil {
		t.Fatal("no VerlSessions for verl's layout with the V1 key as the id")
	}
	row := func(id string) scoring.Trajectory {
		r := scoring.Trajectory{ID: id, Batch: 1}
		r.Source = "a.jsonl"
		return r
	}
	updates := make(chan loaders.Update)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checked := checkedUpdates(ctx, sessions, updates)
	res := &engine.Result{Options: engine.Options{Method: engine.GRPO}, Ranking: &engine.Ranking{Batches: []engine.Batch{{Step: 1}}}}
	for _, c := range []struct {
		name string
		u    loaders.Update
		want bool
	}{
		{"a session of two outputs read", loaders.Update{Trajectories: []scoring.Trajectory{row("u_0_0"), row("u_0_1")}}, true},
		{"the file emptied", loaders.Update{Reloaded: []string{"a.jsonl"}}, true},
		{"the file refilled with one output", loaders.Update{Trajectories: []scoring.Trajectory{row("u_0_0")}}, false},
	} {
		updates <- c.u
		<-checked
		if got := len(sessions.With(nil)(res, []int{0})) > 0; got != c.want {
			t.Errorf("%s: warned %v, want %v", c.name, got, c.want)
		}
	}
	close(updates)
	if _, ok := <-checked; ok {
		t.Error("the checked updates go on once the follower's end")
	}
}
