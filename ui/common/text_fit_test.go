package common

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// fitTextWhole is FitText measuring every text whole: what FitText must
// give, measuring no more than the width decides.
func fitTextWhole(text string, width int, prefix string) string {
	if TextWidth(text) <= width {
		return text
	}
	if prefix == "" || width < 2 || !strings.HasPrefix(text, prefix) || len(text) == len(prefix) || 3*TextWidth(prefix) <= 2*width {
		return ansi.Truncate(text, width, "…")
	}
	rest := text[len(prefix):]
	if kept := width - 1 - TextWidth(rest); kept >= 0 {
		return "…" + ansi.TruncateLeft(prefix, TextWidth(prefix)-kept, "") + rest
	}
	return "…" + ansi.Truncate(rest, width-1, "…")
}

// TestFitTextAsMeasuredWhole: on random texts, short and long, of narrow
// and wide characters, sharing a start or not, FitText gives what
// measuring them whole gives.
func TestFitTextAsMeasuredWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	pieces := []string{"a", "b", "the answer ", "\\boxed{7}", "↵", "数", "é", "🙂", " "}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for range 3000 {
		prefix := text(rng.IntN(400))
		full := prefix + text(rng.IntN(30))
		if rng.IntN(4) == 0 {
			full = text(rng.IntN(400))
		}
		width := rng.IntN(120)
		if got, want := FitText(full, width, prefix), fitTextWhole(full, width, prefix); got != want {
			t.Fatalf("FitText(%q, %d, %q) = %q, want %q", full, width, prefix, got, want)
		}
	}
}
