package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

func TestHealthBadge(t *testing.T) {
	st := common.NewStyles(true, true)
	warn := health.Finding{Check: health.CheckZeroSpread, Level: health.Warn}
	for _, c := range []struct {
		findings []health.Finding
		unread   []string
		want     string
	}{
		{nil, nil, "✓ healthy"},
		{[]health.Finding{warn}, nil, "⚠ 1 check warns"},
		// A check counts once, at its worst level.
		{[]health.Finding{warn, {Check: health.CheckZeroSpread, Level: health.Alert}}, nil, "✖ 1 check alerts"},
		{[]health.Finding{
			warn,
			{Check: health.CheckCorrelationFlip, Objective: "a", Level: health.Alert},
			{Check: health.CheckCorrelationFlip, Objective: "b", Level: health.Warn},
		}, nil, "✖ 1 check alerts ⚠ 2 warn"},
		{[]health.Finding{warn, {Check: health.CheckDominance, Level: health.Warn}}, nil, "⚠ 2 checks warn"},
		// A followed file not read: never healthy, its rows missing.
		{nil, []string{"run/a_1.jsonl"}, "⚠ a_1.jsonl unread"},
		{[]health.Finding{warn}, []string{"run/a_1.jsonl", "run/a_2.jsonl"}, "⚠ 1 check warns ⚠ 2 files unread"},
		{nil, []string{"run/rollouts_of_a_very_long_run_name.jsonl"}, "⚠ …very_long_run_name.jsonl unread"},
	} {
		if got := ansi.Strip(common.HealthBadge(st, c.findings, common.UnreadBadge(st, c.unread, false), false)); got != c.want {
			t.Errorf("badge %q, want %q", got, c.want)
		}
	}
	if got := ansi.Strip(common.HealthBadge(st, nil, common.UnreadBadge(st, []string{"a_1.jsonl"}, true), true)); got != "⚠ 1 unread" {
		t.Errorf("compact badge %q, want %q", got, "⚠ 1 unread")
	}
}

func TestHeaderShowsHealth(t *testing.T) {
	// Below 120 columns the goals take the room of the badge's words.
	for width, badge := range map[int]string{120: "✖ 2 checks alert ⚠ 1 warns", 80: "✖2 ⚠1", 60: "✖2 ⚠1"} {
		m := newTestModel(t, width, 40)
		header := strings.Split(screen(m), "\n")[0]
		if !strings.HasSuffix(strings.TrimRight(header, " "), badge) {
			t.Errorf("at width %d the header does not end with the sample's health: %q", width, header)
		}
	}
}

func TestHealthFollowsTheSettings(t *testing.T) {
	s := uitest.SampleSession(t)
	runHealth(s)
	before := s.Findings()
	if err := s.SetHealth(health.Config{Baseline: 30}, nil); err != nil {
		t.Fatal(err)
	}
	if s.Findings() != nil {
		t.Error("the findings of the settings before are still read")
	}
	runHealth(s)
	if after := s.Findings(); len(after) >= len(before) {
		t.Errorf("a baseline of 30 batches left %d findings of %d", len(after), len(before))
	}
	if s.SetHealth(health.Config{LengthObjective: "nope"}, nil) == nil {
		t.Error("an unknown objective was accepted")
	}
	if s.SetHealth(health.Config{}, []float64{1, 2}) == nil {
		t.Error("a reference of 2 values for 3 objectives was accepted")
	}
}

func TestExportKeys(t *testing.T) {
	t.Chdir(t.TempDir())
	m := newTestModel(t, 120, 40)
	press(m, "]", "e")
	if _, err := os.Stat("rewardlens-step1-pareto.jsonl"); err != nil {
		t.Fatal(err)
	}
	if v := screen(m); !strings.Contains(v, "✓ wrote rewardlens-step1-pareto.jsonl: the rewards of step 1 (128 trajectories)") {
		t.Errorf("the status line does not name the export:\n%s", v)
	}
	press(m, "ctrl+s")
	if _, err := os.Stat(session.SettingsFile); err != nil {
		t.Fatal(err)
	}
	if v := screen(m); !strings.Contains(v, "✓ saved the settings to "+session.SettingsFile) {
		t.Errorf("the status line does not name the settings file:\n%s", v)
	}
}

func TestExportFailureIsShown(t *testing.T) {
	t.Chdir(t.TempDir())
	// A non-empty directory where the file goes: the rename fails, even as
	// root.
	if err := os.MkdirAll(session.SettingsFile+"/x", 0o755); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, 120, 40)
	press(m, "ctrl+s")
	if v := screen(m); !strings.Contains(v, "✖ save settings:") {
		t.Errorf("the status line does not say the save failed:\n%s", v)
	}
	entries, _ := os.ReadDir(".")
	if len(entries) != 1 {
		t.Errorf("the failed save left %d entries, want only the directory", len(entries))
	}
}

// runHealth runs the session's health job, as the root's background
// command does, and takes its findings.
func runHealth(s *session.Session) {
	j := s.HealthJob()
	j.Run()
	s.HealthDone(j)
}
