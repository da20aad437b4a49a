package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStepsHealthLineCutVisibly: at 80x24 the sample's length_drift
// finding ("... -5.9 sd ...") is wider than the screen: it is cut with
// "…", not where the screen ends.
func TestStepsHealthLineCutVisibly(t *testing.T) {
	m := newTestModel(t, 80, 24)
	press(m, "6")
	view := screen(m)
	for _, line := range strings.Split(view, "\n") {
		if !strings.Contains(line, "length_drift") {
			continue
		}
		line = strings.TrimRight(line, " ")
		if !strings.HasSuffix(line, "…") || ansi.StringWidth(line) > 80 {
			t.Errorf("the cut finding does not end with …: %q", line)
		}
		return
	}
	t.Fatalf("no length_drift finding at 80x24:\n%s", view)
}
