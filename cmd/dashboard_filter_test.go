package cmd

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestDashboardFilterMatchesCompute: with --filter-groups, the dashboard's
// batch is compute's: the trajectories compute marks "kept": false are
// left out (invalid, reward 0), and every reward is compute's, on the
// sample with grpo and the filter on accuracy.
func TestDashboardFilterMatchesCompute(t *testing.T) {
	out, errOut, code := run(t, "", "compute", "--method", "grpo", "--filter-groups", "accuracy", "--config", sampleConfigPath, samplePath)
	if code != 0 {
		t.Fatalf("compute: status %d, %s", code, errOut)
	}
	type record struct {
		Reward float64 `json:"reward"`
		Kept   bool    `json:"kept"`
		Valid  bool    `json:"valid"`
	}
	var want []record
	dropped := 0
	for line := range strings.Lines(out) {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
		if !r.Kept {
			dropped++
		}
	}
	file, err := readConfig(sampleConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg := file.Config
	cfg.Method, cfg.FilterGroups = "grpo", "accuracy"
	data, err := loaders.Load([]string{samplePath}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open("sample", cfg, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetFilterGroups(cfg.FilterGroups); err != nil {
		t.Fatal(err)
	}
	m := ui.NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Settle()
	s.Result.Finish()
	if len(want) != s.Evaluation.N() || dropped == 0 {
		t.Fatalf("%d records (%d dropped), %d trajectories", len(want), dropped, s.Evaluation.N())
	}
	for i, r := range want {
		if shown := r.Valid && r.Kept; shown != s.Evaluation.Valid[i] {
			t.Fatalf("record %d: valid %v kept %v, the dashboard's valid %v", i, r.Valid, r.Kept, s.Evaluation.Valid[i])
		}
		if got := s.Result.Rewards[i]; math.Abs(got-r.Reward) > 1e-9 {
			t.Fatalf("record %d: reward %v, compute's %v", i, got, r.Reward)
		}
	}
	// e writes the batch's lines of compute --filter-groups, byte for
	// byte, kept marks included.
	var batch5 strings.Builder
	for line := range strings.Lines(out) {
		if strings.Contains(line, `,"batch":5,`) {
			batch5.WriteString(line)
		}
	}
	t.Chdir(t.TempDir())
	press(m, "]", "]", "]", "]", "]", "e")
	got, err := os.ReadFile("rewardlens-step5-grpo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != batch5.String() || !strings.Contains(batch5.String(), `"kept":false`) {
		t.Errorf("export differs from compute's lines of batch 5:\n%s\nwant:\n%s", got, batch5.String())
	}
}
