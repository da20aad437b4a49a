package engine

import (
	"os"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestStructureFormulasFollowTheContract: each objective normalisation's
// formula in StructureFormulas is the one of docs/CONTRACT.md's table,
// and the violation's amounts are the table's.
func TestStructureFormulasFollowTheContract(t *testing.T) {
	data, err := os.ReadFile("../docs/CONTRACT.md")
	if err != nil {
		t.Fatal(err)
	}
	contract := string(data)
	formulas := map[string]string{}
	for _, f := range scoring.StructureFormulas {
		formulas[f.Name] = f.Formula
	}
	for _, row := range []struct{ name, contractRow, formula string }{
		{"none", "| `none` | `x` |", "N(x) = x"},
		{"minmax", "| `minmax` | `(x - min) / (max - min)` |", "N(x) = (x - min) / (max - min)"},
		{"zscore", "`(x - mean) / std0`", "N(x) = (x - mean) / std0"},
		{"rank", "| `rank` | `(avgrank(x) - 1) / (n - 1)` |", "N(x) = (avgrank(x) - 1) / (n - 1)"},
		{"violation", "| `a >= b` | `a >= b` | `max(0, b - a)` |", "a >= b, a > b: max(0, b - a)"},
		{"violation", "| `a <= b` | `a <= b` | `max(0, a - b)` |", "a <= b, a < b: max(0, a - b)"},
		{"penalty", "`s = sum_k w_k t_k - lambda v`", "s = sum_k w_k t_k - lambda v"},
		{"gate", "`t_k = g_k * o'(N_k(x_k))`", "t_k = g_k o'(N_k(x_k))"},
	} {
		if !strings.Contains(contract, row.contractRow) {
			t.Errorf("CONTRACT.md lacks %q", row.contractRow)
		}
		if !strings.HasPrefix(formulas[row.name], row.formula) && !strings.Contains(formulas[row.name], row.formula) {
			t.Errorf("the %s formula %q lacks %q", row.name, formulas[row.name], row.formula)
		}
	}
	// A new normalisation needs its formula.
	for _, n := range ObjectiveNorms {
		if formulas[string(n)] == "" {
			t.Errorf("normalisation %s has no formula", n)
		}
	}
}
