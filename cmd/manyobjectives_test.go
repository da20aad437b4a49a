package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/diagnose"
)

// manyObjectivesCSV writes a CSV of rows rows and m numeric columns, each
// an objective when inferred.
func manyObjectivesCSV(t *testing.T, m, rows int) string {
	t.Helper()
	var b strings.Builder
	for k := range m {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "o%03d", k)
	}
	b.WriteByte('\n')
	for i := range rows {
		for k := range m {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d", (i*(k+1))%7)
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "wide.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCorrelationOnlyUpToMaxObjectives: stats holds the correlation matrix
// up to diagnose.MaxCorrelationObjectives objectives and says, beyond, that
// it is not computed (its m² numbers would be most of the output and of the
// memory: issue 16).
func TestCorrelationOnlyUpToMaxObjectives(t *testing.T) {
	max := diagnose.MaxCorrelationObjectives
	for _, c := range []struct {
		m      int
		matrix bool
	}{{max, true}, {max + 1, false}} {
		path := manyObjectivesCSV(t, c.m, 10)
		stdout, stderr, code := run(t, "", "stats", "--format", "json", path)
		if code != exitOK {
			t.Fatalf("m = %d: status %d, %s", c.m, code, stderr)
		}
		var report struct {
			Batches []struct {
				Correlation [][]*float64 `json:"correlation"`
			} `json:"batches"`
		}
		if err := json.Unmarshal([]byte(stdout), &report); err != nil {
			t.Fatal(err)
		}
		if got := len(report.Batches[0].Correlation); (got == c.m) != c.matrix || (!c.matrix && got != 0) {
			t.Errorf("m = %d: a correlation matrix of %d rows", c.m, got)
		}
		table, _, _ := run(t, "", "stats", path)
		note := fmt.Sprintf("correlation (Pearson): not computed for more than %d objectives (%d)", max, c.m)
		if strings.Contains(table, note) == c.matrix {
			t.Errorf("m = %d: the table says %q: %v", c.m, note, !c.matrix)
		}
	}
}
