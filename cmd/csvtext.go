package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// csvCells makes text from the data safe in the cells of a CSV output,
// which has no escape of its own: every control and invisible character
// is written as the dashboard shows it (textsafe.Line: `\x1b`, `\u200b`),
// but for line breaks and tabs, which CSV quotes and which hide nothing.
// It counts the cells it changed: the exact text is in the JSON outputs
// only, which warn says.
type csvCells struct{ escaped int }

// cell returns s safe in a CSV cell.
func (c *csvCells) cell(s string) string {
	if textsafe.Line(s) == s {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		fields := strings.Split(line, "\t")
		for j, f := range fields {
			fields[j] = textsafe.Line(f)
		}
		lines[i] = strings.Join(fields, "\t")
	}
	safe := strings.Join(lines, "\n")
	if safe != s {
		c.escaped++
	}
	return safe
}

// warn says on w how many cells were escaped, what naming the cells
// that may be (`ids, groups or sources`); nothing when none was.
func (c *csvCells) warn(w io.Writer, what string) {
	if c.escaped > 0 {
		fmt.Fprintf(w, "rewardlens: warning: %d CSV %s (%s) %s control or invisible characters, written escaped as the dashboard shows them (\\u200b): --format jsonl keeps their exact text\n",
			c.escaped, english.Plural(c.escaped, "cell"), what, english.Verb(c.escaped, "holds", "hold"))
	}
}
