package layouts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestOpenInstructNormalisation checks how the layout tells the standard
// advantage from the centered one by the logged advantage.
func TestOpenInstructNormalisation(t *testing.T) {
	line := func(step, prompt int, reward, advantage float64) string {
		b, _ := json.Marshal(map[string]any{"step": step, "sample_idx": 0, "prompt_idx": prompt, "reward": reward, "advantage": advantage})
		return string(b) + "\n"
	}
	// Rewards 0, 2: mean 1, population std 1.
	std := 1 / (1 + 1e-8)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"standard.jsonl": line(1, 0, 0, -std) + line(1, 0, 2, std),
		"centered.jsonl": line(1, 0, 0, -1) + line(1, 0, 2, 1),
		// Every group's rewards equal: both formulas give 0.
		"flat.jsonl": line(1, 0, 3, 0) + line(1, 0, 3, 0),
		// One group standard, one centered: neither fits the run.
		"mixed.jsonl": line(1, 0, 0, -std) + line(1, 0, 2, std) + line(1, 1, 0, -1) + line(1, 1, 2, 1),
		// A group of one (numpy's std 0) tells nothing either.
		"alone.jsonl": line(1, 0, 5, 0),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]openInstructMode{
		"standard.jsonl": openInstructStandard, "centered.jsonl": openInstructCentered,
		"flat.jsonl": openInstructCentered, "mixed.jsonl": openInstructCentered,
		"alone.jsonl": openInstructCentered, "missing.jsonl": openInstructCentered,
	} {
		if got := openInstructNormalisation(openInstructPeek(loaders.FileFields{Path: filepath.Join(dir, name)})); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if got := openInstructNormalisation(openInstructPeek(loaders.FileFields{})); got != openInstructCentered {
		t.Errorf(`"": %s, want centered`, got)
	}
}
