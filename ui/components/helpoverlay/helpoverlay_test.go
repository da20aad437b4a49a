package helpoverlay

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapTextKeepsTheMinus: the GRPO formula's "s - mean(s)" keeps its
// minus sign wherever the line breaks, and no line is wider than asked.
func TestWrapTextKeepsTheMinus(t *testing.T) {
	desc := "(scale batch: the batch's); scale none or normalize off: s - mean(s)"
	for width := 5; width <= 70; width++ {
		got := wrapText(desc, width)
		// Words wider than the line are cut in pieces: compare the text
		// without its spaces and line breaks.
		if strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(desc), "") {
			t.Errorf("wrapText at %d lost text: %q", width, got)
		}
		for _, line := range strings.Split(got, "\n") {
			if ansi.StringWidth(line) > width {
				t.Errorf("wrapText at %d: line %q is %d wide", width, line, ansi.StringWidth(line))
			}
		}
	}
}

// TestWrapTextBreaksAfterOperators: no line starts with a lone operator,
// as "- mean(s)" would, read as a bullet: the line breaks after it.
func TestWrapTextBreaksAfterOperators(t *testing.T) {
	desc := "(scale batch: the batch's); scale none or normalize off: s - mean(s); penalty λ of score - λ × violation"
	for width := 8; width <= 70; width++ {
		for _, line := range strings.Split(wrapText(desc, width), "\n") {
			if f := strings.Fields(line); len(f) > 0 && strings.Contains("-×", f[0]) {
				t.Errorf("wrapText at %d: line %q starts with an operator", width, line)
			}
		}
	}
	if got := wrapText("normalize off: s - mean(s)", 18); got != "normalize off: s -\nmean(s)" {
		t.Errorf("wrapText at 18 = %q, want the break after the minus", got)
	}
}
