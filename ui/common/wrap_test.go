package common

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapAtSpacesKeepsTheMinus: the GRPO formula's "s - mean(s)" keeps its
// minus sign wherever the line breaks, and no line is wider than asked.
func TestWrapAtSpacesKeepsTheMinus(t *testing.T) {
	desc := "(scale batch: the batch's); scale none or normalize off: s - mean(s)"
	for width := 5; width <= 70; width++ {
		got := WrapAtSpaces(desc, width)
		// Words wider than the line are cut in pieces: compare the text
		// without its spaces and line breaks.
		if strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(desc), "") {
			t.Errorf("WrapAtSpaces at %d lost text: %q", width, got)
		}
		for _, line := range strings.Split(got, "\n") {
			if ansi.StringWidth(line) > width {
				t.Errorf("WrapAtSpaces at %d: line %q is %d wide", width, line, ansi.StringWidth(line))
			}
		}
	}
}

// TestWrapAtSpacesBreaksAfterOperators: no line starts with a lone operator,
// as "- mean(s)" would, read as a bullet: the line breaks after it.
func TestWrapAtSpacesBreaksAfterOperators(t *testing.T) {
	desc := "(scale batch: the batch's); scale none or normalize off: s - mean(s); penalty λ of score - λ × violation"
	for width := 8; width <= 70; width++ {
		for _, line := range strings.Split(WrapAtSpaces(desc, width), "\n") {
			if f := strings.Fields(line); len(f) > 0 && strings.Contains("-×", f[0]) {
				t.Errorf("WrapAtSpaces at %d: line %q starts with an operator", width, line)
			}
		}
	}
	if got := WrapAtSpaces("normalize off: s - mean(s)", 18); got != "normalize off: s -\nmean(s)" {
		t.Errorf("WrapAtSpaces at 18 = %q, want the break after the minus", got)
	}
}

// TestWrapAtSpacesKeepsFlags: a flag is not broken at its hyphens (the
// Prompts tab's error says which to give), a word wider than the line is
// cut in pieces, and each line of s starts a line.
func TestWrapAtSpacesKeepsFlags(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{
		{"no task metric: give --task-metric EXPR", 16, "no task metric:\ngive\n--task-metric\nEXPR"},
		{"abcdefghij xy", 4, "abcd\nefgh\nij\nxy"},
		{"one\ntwo three", 20, "one\ntwo three"},
	} {
		if got := WrapAtSpaces(c.s, c.width); got != c.want {
			t.Errorf("WrapAtSpaces(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
	}
}

// TestWrapAtSpacesWideCharacterInOneCell: a double-width character cannot
// fit a line of one cell; it goes alone on its line (the Prompts tab asks
// for max(width,1)), the text kept whole, and the wrapping ends.
func TestWrapAtSpacesWideCharacterInOneCell(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"数学 ok", "数\n学\no\nk"},
		{"a数b", "a\n数\nb"},
	} {
		got := WrapAtSpaces(tc.text, 1)
		if got != tc.want {
			t.Errorf("WrapAtSpaces(%q, 1) = %q, want %q", tc.text, got, tc.want)
		}
		if got0 := WrapAtSpaces(tc.text, 0); got0 != got {
			t.Errorf("WrapAtSpaces(%q, 0) = %q, want as width 1: %q", tc.text, got0, got)
		}
	}
}
