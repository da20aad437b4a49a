package histogram

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

// TestHistogramCutsNoNumber draws a histogram narrower than its title and
// its caption: the title ends in an ellipsis, and the caption leaves out
// the bin's width rather than cut it.
func TestHistogramCutsNoNumber(t *testing.T) {
	values := []float64{0.1, 0.2, 0.2, 0.3, 0.35, 0.4, 0.5, 0.8}
	h := Histogram{Title: "Scores: s = Σ weight × objective (min goals negated)", Quantity: "score", Values: values}
	for _, width := range []int{30, 45, 80} {
		lines := strings.Split(ansi.Strip(h.View(common.NewStyles(true, true), width, 12)), "\n")
		if w := ansi.StringWidth(lines[0]); w > width || (w < ansi.StringWidth(h.Title) && !strings.HasSuffix(lines[0], "…")) {
			t.Errorf("width %d: title %q", width, lines[0])
		}
		caption := strings.TrimSpace(lines[len(lines)-1])
		if ansi.StringWidth(lines[len(lines)-1]) > width || !strings.HasPrefix(caption, "score") ||
			(strings.Contains(caption, "(") && !strings.HasSuffix(caption, ")")) {
			t.Errorf("width %d: caption %q", width, caption)
		}
	}
}
