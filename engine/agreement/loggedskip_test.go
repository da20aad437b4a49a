package agreement

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
)

// TestLoggedNotNumberCut: the warning shows a logged value's first 40
// runes, a string's quoted and escaped, an invalid byte kept as its
// escape; a shorter one whole.
func TestLoggedNotNumberCut(t *testing.T) {
	long := "é\x1b[31m" + strings.Repeat("a", 60)
	for _, c := range []struct {
		value any
		want  string
	}{
		{long, `"é\x1b[31m` + strings.Repeat("a", 34) + `"...`},
		{"\xff" + strings.Repeat("b", 39), `"\xff` + strings.Repeat("b", 39) + `"`},
		{"\xff" + strings.Repeat("b", 40), `"\xff` + strings.Repeat("b", 39) + `"...`},
		{[]any{strings.Repeat("c", 50)}, `["` + strings.Repeat("c", 38) + "..."},
	} {
		ev := &engine.Evaluation{LoggedNotNumbers: 1, FirstLoggedNotNumber: engine.LoggedValue{Where: "f:1", Value: c.value}}
		if got := NotNumberWarning(ev); !strings.Contains(got, "(the first: f:1: "+c.want+"): ") {
			t.Errorf("%q: %q, want %s", c.value, got, c.want)
		}
	}
}
