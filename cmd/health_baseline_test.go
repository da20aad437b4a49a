package cmd

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHealthBaselineLongerThanRun: with --baseline longer than the run,
// the baseline is every batch and says so (the table and JSON's baseline
// the effective count), and with no batch after it the findings say the
// drift checks did not run (JSON's not_run), not a bare "healthy"; one batch after it is
// healthy again.
func TestHealthBaselineLongerThanRun(t *testing.T) {
	var rows strings.Builder
	for b := range 3 {
		for i, x := range []string{"1", "0", "1", "0"} {
			rows.WriteString(`{"id":"` + string(rune('a'+4*b+i)) + `","batch":` + string(rune('0'+b)) + `,"group":"g","step_count":3,"metadata":{"x":` + x + `}}` + "\n")
		}
	}
	path := filepath.Join(writeFiles(t, map[string]string{"run.jsonl": rows.String()}), "run.jsonl")
	args := []string{"stats", "--health", "--objective", "x=metadata.x", "--baseline"}

	out, errOut, code := run(t, "", append(args, "100", path)...)
	if code != 0 || !strings.Contains(out, "health: baseline the first 3 batches (all of them, fewer than --baseline 100);") ||
		!strings.Contains(out, "findings: none; no batch after the baseline: drift checks not run (variance_collapse, length_drift, correlation_flip)\n") ||
		strings.Contains(out, "healthy") {
		t.Errorf("--baseline 100 over 3 batches: status %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, _, _ = run(t, "", "stats", "--format", "json", "--health", "--objective", "x=metadata.x", "--baseline", "100", path)
	var report struct {
		Health struct {
			Baseline int      `json:"baseline"`
			NotRun   []string `json:"not_run"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || report.Health.Baseline != 3 ||
		!slices.Equal(report.Health.NotRun, []string{"variance_collapse", "length_drift", "correlation_flip"}) {
		t.Errorf("json: baseline %d, not_run %q (%v), want 3 and the drift checks:\n%s", report.Health.Baseline, report.Health.NotRun, err, out)
	}
	if out, _, _ := run(t, "", append(args, "2", path)...); !strings.Contains(out, "findings: none, healthy\n") || strings.Contains(out, "not run") {
		t.Errorf("--baseline 2 over 3 batches:\n%s", out)
	}
	if out, _, _ := run(t, "", "stats", "--format", "json", "--health", "--objective", "x=metadata.x", "--baseline", "2", path); strings.Contains(out, "not_run") {
		t.Errorf("json, --baseline 2 over 3 batches: not_run in\n%s", out)
	}
}

// TestHealthLengthDriftWithoutStepCount: records without a step_count (a
// trainer's rollouts) leave length_drift nothing to follow: the findings
// say it did not run (JSON's not_run), not a bare "healthy"; with
// --health-length it follows that objective.
func TestHealthLengthDriftWithoutStepCount(t *testing.T) {
	var rows strings.Builder
	for b := range 4 {
		for i, x := range []string{"1", "0", "1", "0"} {
			rows.WriteString(`{"id":"` + string(rune('a'+4*b+i)) + `","batch":` + string(rune('0'+b)) + `,"group":"g","metadata":{"x":` + x + `}}` + "\n")
		}
	}
	path := filepath.Join(writeFiles(t, map[string]string{"run.jsonl": rows.String()}), "run.jsonl")
	out, _, code := run(t, "", "stats", "--health", "--objective", "x=metadata.x", path)
	if code != 0 || !strings.Contains(out, "findings: none; length_drift not run: no trajectory has a step_count above 0 (--health-length NAME follows an objective)\n") {
		t.Errorf("status %d:\n%s", code, out)
	}
	out, _, _ = run(t, "", "stats", "--format", "json", "--health", "--objective", "x=metadata.x", path)
	var report struct {
		Health struct {
			NotRun []string `json:"not_run"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || !slices.Equal(report.Health.NotRun, []string{"length_drift"}) {
		t.Errorf("json: not_run %q (%v):\n%s", report.Health.NotRun, err, out)
	}
	if out, _, _ := run(t, "", "stats", "--health", "--objective", "x=metadata.x", "--health-length", "x", path); !strings.Contains(out, "findings: none, healthy\n") {
		t.Errorf("--health-length x:\n%s", out)
	}
}
