package csvread

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestQuoteJSON: a response cell is the JSON string encoding/json writes
// (without escaping HTML), and printable ASCII costs one allocation.
func TestQuoteJSON(t *testing.T) {
	for _, s := range []string{"", "The answer is 42.", `a "b" \c`, "<&>", "tab\there", "é", "\u2028", "\xff", "\x7f", "~ "} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got, want := string(quoteJSON(s)), strings.TrimSuffix(buf.String(), "\n"); got != want {
			t.Errorf("quoteJSON(%q) = %s, want %s", s, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { quoteJSON("The answer is 42.") }); n > 1 {
		t.Errorf("quoteJSON of printable ASCII: %v allocations, want 1", n)
	}
}
