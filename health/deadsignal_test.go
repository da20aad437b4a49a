package health

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
)

// TestDeadSignalChecks grades the dead and phantom shares at the default
// thresholds and at thresholds of the settings; a trend without a
// DeadSignal (no task metric) is not checked.
func TestDeadSignalChecks(t *testing.T) {
	with := func(d diagnose.DeadSignal) func(*diagnose.Trend) {
		return func(t *diagnose.Trend) { t.DeadSignal = &d }
	}
	cases := []struct {
		name   string
		cfg    Config
		change func(*diagnose.Trend)
		check  Check
		level  Level
		value  float64
	}{
		{"no task metric", Config{}, func(*diagnose.Trend) {}, CheckDeadSignal, 0, 0},
		{"half dead", Config{}, with(diagnose.DeadSignal{Groups: 4, ZeroAllFail: 2, DeadShare: 0.5}), CheckDeadSignal, 0, 0},
		{"three of four dead", Config{}, with(diagnose.DeadSignal{Groups: 4, ZeroAllFail: 2, ZeroAllPass: 1, DeadShare: 0.75, PassRate: 0.3, ExpectedDeadShare: 0.2}), CheckDeadSignal, Warn, 0.75},
		{"all dead", Config{}, with(diagnose.DeadSignal{Groups: 4, ZeroAllFail: 4, DeadShare: 1}), CheckDeadSignal, Alert, 1},
		{"three of four dead, warn at 0.8", Config{DeadSignal: Thresholds{Warn: 0.8, Alert: 0.9}}, with(diagnose.DeadSignal{Groups: 4, DeadShare: 0.75}), CheckDeadSignal, 0, 0},
		{"a tenth phantom", Config{}, with(diagnose.DeadSignal{Groups: 10, Phantom: 1, PhantomShare: 0.1}), CheckPhantomSignal, 0, 0},
		{"a fifth phantom", Config{}, with(diagnose.DeadSignal{Groups: 10, Phantom: 2, PhantomShare: 0.2}), CheckPhantomSignal, Warn, 0.2},
		{"half phantom", Config{}, with(diagnose.DeadSignal{Groups: 10, Phantom: 5, PhantomShare: 0.5}), CheckPhantomSignal, Alert, 0.5},
		{"a tenth phantom, alert at 0.05", Config{PhantomSignal: Thresholds{Warn: 0.01, Alert: 0.05}}, with(diagnose.DeadSignal{Groups: 10, Phantom: 1, PhantomShare: 0.1}), CheckPhantomSignal, Alert, 0.1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []Finding
			for _, f := range runHealth(engine.GRPO, c.cfg, c.change) {
				if f.Check == c.check {
					got = append(got, f)
				}
			}
			if c.level == 0 {
				if len(got) > 0 {
					t.Fatalf("fired: %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Level != c.level || got[0].Step != 3 || !near(got[0].Value, c.value) {
				t.Fatalf("findings %+v, want one %s at step 3 of value %v", got, c.level, c.value)
			}
		})
	}
	got := runHealth(engine.GRPO, Config{}, with(diagnose.DeadSignal{Groups: 4, ZeroAllFail: 2, ZeroAllPass: 1, DeadShare: 0.75, PassRate: 0.3, ExpectedDeadShare: 0.2}))
	if len(got) != 1 || !strings.Contains(got[0].Message, "3 of 4 groups") || !strings.Contains(got[0].Message, "gives 20%") {
		t.Errorf("message %+v, want the count and the expectation", got)
	}
}

// TestDeadSignalOneGroup: a batch of one group is "1 group" in both
// messages.
func TestDeadSignalOneGroup(t *testing.T) {
	for _, c := range []struct {
		check Check
		d     diagnose.DeadSignal
		want  string
	}{
		{CheckDeadSignal, diagnose.DeadSignal{Groups: 1, ZeroAllFail: 1, DeadShare: 1}, "1 of 1 group all pass or all fail the task ("},
		{CheckPhantomSignal, diagnose.DeadSignal{Groups: 1, Phantom: 1, PhantomShare: 1}, "1 of 1 group all pass or all fail the task while"},
	} {
		var got []string
		for _, f := range runHealth(engine.GRPO, Config{}, func(t *diagnose.Trend) { t.DeadSignal = &c.d }) {
			if f.Check == c.check {
				got = append(got, f.Message)
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%s: messages %q, want one starting %q", c.check, got, c.want)
		}
	}
}
