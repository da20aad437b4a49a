package ui

import (
	"os"
	"strings"
	"testing"
)

// TestExportTwiceGivesTwoFiles presses e twice on the same batch: the
// second export goes to -2, the first stays, the status line names each,
// even at 80 columns.
func TestExportTwiceGivesTwoFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	m := newTestModel(t, 80, 24)
	press(m, "e")
	first, err := os.ReadFile("rewardlens-step0-pareto.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	press(m, "e")
	if v := screen(m); !strings.Contains(v, "wrote rewardlens-step0-pareto-2.jsonl") {
		t.Errorf("the status line does not name the second file:\n%s", v)
	}
	second, err := os.ReadFile("rewardlens-step0-pareto-2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile("rewardlens-step0-pareto.jsonl"); string(again) != string(first) || string(second) != string(first) {
		t.Error("the first export changed, or the second holds other rewards")
	}
	if n := strings.Count(string(first), "\n"); n != 128 {
		t.Errorf("the export holds %d records, want the batch's 128", n)
	}
	entries, _ := os.ReadDir(".")
	if len(entries) != 2 {
		t.Errorf("%d files after two exports, want 2", len(entries))
	}
}
