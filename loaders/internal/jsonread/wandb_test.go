package jsonread

import (
	"bufio"
	"slices"
	"strings"
	"testing"
)

// TestWandbTableIntegerColumns checks which columns WandbTableColumns
// takes as of ints: those written without a fraction in every row read,
// when the table writes an integral float with one (as Python does), and
// none when it does not (Go's encoding/json writes 1.0 as 1).
func TestWandbTableIntegerColumns(t *testing.T) {
	for _, c := range []struct {
		name, rows string
		want       []string
	}{
		{"python", `[1, "p", 0.0, 235, 0.5], [1, "p", 1.0, 12, -0.5]`, []string{"step", "num_tokens"}},
		{"a fraction later", `[1, "p", 0.0, 235, 0.5], [1, "p", 1.0, 12.5, -0.5]`, []string{"step"}},
		{"null first", `[1, "p", 0.0, null, 0.5], [1, "p", 1.0, 12, -0.5]`, []string{"step", "num_tokens"}},
		{"go", `[1, "p", 0, 235, 0.5], [1, "p", 1, 12, -0.5]`, nil},
	} {
		text := `{"columns": ["step", "prompt", "accuracy_reward", "num_tokens", "advantage"], "data": [` + c.rows + `]}`
		columns, integers := WandbTableColumns(bufio.NewReaderSize(strings.NewReader(text), MaxTableSniff))
		if len(columns) != 5 || !slices.Equal(integers, c.want) {
			t.Errorf("%s: columns %v, integers %v, want %v", c.name, columns, integers, c.want)
		}
	}
}
