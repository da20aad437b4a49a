package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// unendedMsg says the last line of the file at path unended, its step
// then graded provisionally (loaders.StillWritten).
func unendedMsg(path string) liveMsg {
	return liveMsg{loaders.Update{Unended: []loaders.Unended{{Path: path, Line: 99, Bytes: 10, For: 5 * time.Second}}}, true}
}

// TestFollowHealthRegradedAfterItsJobDropped: the newest file's last line
// said unended (its step provisional: a regrading job claimed), then
// resumed before the job's due message (the health before current again:
// the job dropped), then said unended again: the health is graded by a
// new job. HealthJob handed back the dropped job, claimed, which no
// command ran: the badge said "updating…" for ever.
func TestFollowHealthRegradedAfterItsJobDropped(t *testing.T) {
	m, _ := newLiveModel(t)
	m.Settle()
	s := m.common.Session
	if !s.HealthReady() {
		t.Fatal("not ready after Settle")
	}
	f := s.Trajectories.At(s.Trajectories.Len() - 1).Source
	m.Update(unendedMsg(f))
	if s.HealthReady() {
		t.Fatal("the step of an unended file not graded again")
	}
	dropped := s.HealthJob() // the one background() claimed
	m.Update(liveMsg{loaders.Update{Resumed: []string{f}}, true})
	if !s.HealthReady() {
		t.Fatal("resumed: the health before not current again")
	}
	m.Update(backgroundDueMsg{dropped})
	m.Update(unendedMsg(f))
	if s.HealthReady() {
		t.Fatal("unended again: the health graded without its line is ready")
	}
	j := s.HealthJob()
	if j == dropped {
		t.Fatalf("the health is not ready and HealthJob hands back the dropped job, which no command runs; header %q", headerOf(m))
	}
	j.Run()
	m.Update(healthDoneMsg{j})
	if !s.HealthReady() || strings.Contains(headerOf(m), "updating") {
		t.Errorf("the new job landed and the health is not ready: header %q", headerOf(m))
	}
}

// TestFollowFirstHealthKeptOnProvisionalChange: the first (full) health
// job of a followed session runs; meanwhile the newest file's last line
// is said unended: the job's trends, of the result shown, are kept and
// graded again by a job that computes nothing else, rather than dropped
// and computed again by a second full job.
func TestFollowFirstHealthKeptOnProvisionalChange(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.common.Session
	if s.HealthReady() {
		t.Fatal("the health is ready before its job ran")
	}
	first := s.HealthJob()
	first.Start()
	f := s.Trajectories.At(s.Trajectories.Len() - 1).Source
	m.Update(unendedMsg(f))
	if s.HealthJob() != first {
		t.Fatal("a change of the provisional steps alone replaced the job computing the trends")
	}
	first.Run()
	if !s.HealthDone(first) {
		t.Fatal("the first health job's trends, of the result shown, dropped for a change of the provisional steps alone")
	}
	if s.HealthReady() {
		t.Fatal("the health graded before the line unended taken as current")
	}
	regrade := s.HealthJob()
	if regrade == first || !s.HealthJobCurrent(regrade) {
		t.Fatal("no job grades the kept trends again")
	}
	regrade.Run()
	m.Update(healthDoneMsg{regrade})
	if !s.HealthReady() {
		t.Fatal("the regrading job landed and the health is not ready")
	}
	last := s.Result.Ranking.Batches[len(s.Result.Ranking.Batches)-1].Step
	want := loaders.StillWritten([]string{f}, map[string]int64{f: last})[last]
	for _, fd := range s.Findings() {
		if fd.Step == last && fd.Provisional != want {
			t.Errorf("step %d's %s provisional %q, want %q", last, fd.Check, fd.Provisional, want)
		}
	}
}

// TestFollowProvisionalWhyAsStatsFollow: step 20 read in part
// (follow.Partial) and its file's last line unended: its findings are
// provisional for the unfinished line, as stats --follow gives them
// (statsFollower.partial puts that reason first), not for the rows read.
func TestFollowProvisionalWhyAsStatsFollow(t *testing.T) {
	m, _ := newLiveModel(t)
	m.Settle()
	s := m.common.Session
	_, step20 := sampleSteps(t, 20, 21)
	for i := range step20 {
		step20[i].StepCount = 1000 // length_drift's finding at step 20
	}
	m.Update(liveMsg{loaders.Update{Trajectories: step20[:40]}, true})
	f := step20[0].Source
	m.Update(unendedMsg(f))
	m.Settle()
	want := loaders.StillWritten([]string{f}, map[string]int64{f: 20})[20]
	n := 0
	for _, fd := range s.Findings() {
		if fd.Step != 20 {
			continue
		}
		n++
		if fd.Provisional != want {
			t.Errorf("step 20's %s provisional %q, stats --follow's %q", fd.Check, fd.Provisional, want)
		}
	}
	if n == 0 {
		t.Fatalf("no finding at step 20: %+v", s.Findings())
	}
}

// TestStepsTrendsOfAResultBefore: on the Steps tab, following, a method
// switch lands (its health not computed yet), then an update brings step
// 20 before the health: the tab keeps the trends of 20 batches while the
// result shown has 21; it draws none of them (they indexed past their
// end) and says it computes until the health comes.
func TestStepsTrendsOfAResultBefore(t *testing.T) {
	m, _ := newLiveModel(t)
	press(m, "6")
	m.Settle()
	m.Update(uitest.KeyPress("m"))
	for m.rc.next != nil {
		m.Update(m.rc.next())
	}
	_, step20 := sampleSteps(t, 20, 21)
	m.Update(liveMsg{loaders.Update{Trajectories: step20}, true})
	if m.common.Session.HealthReady() {
		t.Fatal("the health of the update is ready: the tab draws the current trends")
	}
	if v := screen(m); !strings.Contains(v, "computing") {
		t.Errorf("the Steps tab, its trends of a result before, does not say it computes:\n%s", v)
	}
	m.Settle()
	if v := screen(m); strings.Contains(v, "computing") {
		t.Errorf("the health landed and the Steps tab still computes:\n%s", v)
	}
}
