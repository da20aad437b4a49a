package health

import (
	"fmt"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/english"
)

// The checks on the groups without signal by the task metric, which run
// on the trend points that carry a DeadSignal (diagnose.AddDeadSignal).
const (
	CheckDeadSignal    Check = "dead_signal"
	CheckPhantomSignal Check = "phantom_signal"
)

// Thresholds are a check's WARN and ALERT levels; zero values take the
// check's defaults.
type Thresholds struct {
	Warn, Alert float64
}

// The default thresholds of dead_signal and phantom_signal, fractions of
// the groups, above.
var (
	DefaultDeadSignal    = Thresholds{Warn: 0.50, Alert: 0.75}
	DefaultPhantomSignal = Thresholds{Warn: 0.10, Alert: 0.25}
)

// or returns t, with def's value for each level that t leaves 0.
func (t Thresholds) or(def Thresholds) Thresholds {
	if t.Warn == 0 {
		t.Warn = def.Warn
	}
	if t.Alert == 0 {
		t.Alert = def.Alert
	}
	return t
}

// deadSignal grades DeadShare, the fraction of the groups whose task
// metric all pass or all fail (no signal from the task, whatever the
// shaping adds), saying what independent sampling at the batch's pass
// rate would give: far above it, the prompts are too easy or too hard
// for the group size. note ends the message.
func deadSignal(t *diagnose.Trend, th Thresholds, note string) (Finding, bool) {
	d := t.DeadSignal
	if d == nil || d.Groups == 0 {
		return Finding{}, false
	}
	th = th.or(DefaultDeadSignal)
	msg := fmt.Sprintf("%d of %d %s all pass or all fail the task (%d all-pass, %d all-fail with equal scores, %d phantom); independent sampling at pass rate %.2f gives %s",
		d.ZeroAllPass+d.ZeroAllFail+d.Phantom, d.Groups, english.Plural(d.Groups, "group"), d.ZeroAllPass, d.ZeroAllFail, d.Phantom, d.PassRate, english.Percent(d.ExpectedDeadShare)) + note
	return finding(CheckDeadSignal, "", d.DeadShare, th.Warn, th.Alert, false, msg)
}

// phantomSignal grades PhantomShare, the fraction of the groups whose
// task metric all pass or all fail while their scores vary: GRPO then
// ranks their completions by the shaping terms alone (an overlong
// penalty giving short wrong answers a positive advantage). note ends
// the message.
func phantomSignal(t *diagnose.Trend, th Thresholds, note string) (Finding, bool) {
	d := t.DeadSignal
	if d == nil || d.Groups == 0 {
		return Finding{}, false
	}
	th = th.or(DefaultPhantomSignal)
	msg := fmt.Sprintf("%d of %d %s all pass or all fail the task while their scores vary: their advantages come from shaping alone", d.Phantom, d.Groups, english.Plural(d.Groups, "group")) + note
	return finding(CheckPhantomSignal, "", d.PhantomShare, th.Warn, th.Alert, false, msg)
}
