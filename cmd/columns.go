package cmd

import (
	"bytes"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// columnWriter aligns the cells of its text as text/tabwriter does with a
// padding of two spaces, measured in terminal columns (ansi.StringWidth)
// rather than in runes: a name of wide characters (CJK) takes two columns
// a character, and tabwriter shifted its row. A line's cells end with a
// tab; what follows its last tab is written as it is. The text is held
// until Flush.
type columnWriter struct {
	w     io.Writer
	right bool
	buf   bytes.Buffer
}

// columnPadding is the spaces between two columns.
const columnPadding = 2

// newColumnWriter returns a columnWriter writing to w, its cells aligned
// to the right when right is true, else to the left.
func newColumnWriter(w io.Writer, right bool) *columnWriter {
	return &columnWriter{w: w, right: right}
}

func (c *columnWriter) Write(p []byte) (int, error) { return c.buf.Write(p) }

// Flush writes the text held, aligned.
func (c *columnWriter) Flush() error {
	text := strings.TrimSuffix(c.buf.String(), "\n")
	c.buf.Reset()
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	cells := make([][]string, len(lines))
	var widths []int
	for i, line := range lines {
		cells[i] = strings.Split(line, "\t")
		for j, cell := range cells[i][:len(cells[i])-1] {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], ansi.StringWidth(cell))
		}
	}
	var out strings.Builder
	for _, row := range cells {
		for j, cell := range row[:len(row)-1] {
			pad := strings.Repeat(" ", widths[j]+columnPadding-ansi.StringWidth(cell))
			if c.right {
				out.WriteString(pad + cell)
			} else {
				out.WriteString(cell + pad)
			}
		}
		out.WriteString(row[len(row)-1] + "\n")
	}
	_, err := io.WriteString(c.w, out.String())
	return err
}
