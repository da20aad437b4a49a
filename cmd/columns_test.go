package cmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestColumnWriterWideNames: a name of wide characters takes two columns
// a character, and its row stays aligned with the others, as in a
// terminal; what follows a line's last tab is written as it is.
func TestColumnWriterWideNames(t *testing.T) {
	var out strings.Builder
	cw := newColumnWriter(&out, true)
	fmt.Fprintln(cw, "\tgoal\tcount\t")
	fmt.Fprintln(cw, "acc\tmax\t12\t")
	fmt.Fprintln(cw, "全角スコア\tmax\t3\ttail")
	if err := cw.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		"              goal  count",
		"         acc   max     12",
		"  全角スコア   max      3tail",
	}
	if len(lines) != len(want) {
		t.Fatalf("lines %q", lines)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d = %q, want %q", i, lines[i], want[i])
		}
	}
	if w0, w2 := ansi.StringWidth(lines[1]), ansi.StringWidth(strings.TrimSuffix(lines[2], "tail")); w0 != w2 {
		t.Errorf("rows of %d and %d columns", w0, w2)
	}
}

// TestStatsObjectiveNamedScore: verl's objective is its score field,
// named score; the stats table calls its row objectives.score, as the
// CSV output names its column, beside the weighted score's row.
func TestStatsObjectiveNamedScore(t *testing.T) {
	out, errOut, code := run(t, "", "stats", filepath.Join(repoRoot, "sample_data", "verl"))
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasSuffix(f[0], "score") {
			rows = append(rows, f[0])
		}
	}
	if len(rows) < 2 || rows[0] != "objectives.score" || rows[1] != "score" {
		t.Errorf("the first batch's score rows are %q, want objectives.score then score:\n%s", rows, out)
	}
}

// TestReportUpdateNestedErrors: an update's error joins each file's, one
// of which may join two (a rotated file's part and its new one): every
// malformed-lines error is said, at any depth (follow.Skipped counts them).
func TestReportUpdateNestedErrors(t *testing.T) {
	m := func(path string, n int) error { return &loaders.MalformedError{Path: path, Skipped: n} }
	errs := []loaders.FileError{{Path: "a.jsonl", Err: errors.Join(m("a.jsonl", 1))}, {Path: "b.jsonl", Err: m("b.jsonl", 2)},
		{Path: "c.jsonl", Err: errors.Join(m("c.jsonl", 3), m("c.jsonl.1", 4))}}
	var out strings.Builder
	reportUpdate(&out, loaders.Update{Errs: errs})
	for _, p := range []string{"a.jsonl", "b.jsonl", "c.jsonl:", "c.jsonl.1"} {
		if !strings.Contains(out.String(), p) {
			t.Errorf("%s not said:\n%s", p, out.String())
		}
	}
}

// TestReportUpdateVanishedNotSaidRead: a file that went before it was
// read (gone, with its loaders.VanishedError in the same update) is said
// by its error alone: nothing was read from it to stay.
func TestReportUpdateVanishedNotSaidRead(t *testing.T) {
	const never, read = "run/step_3.jsonl", "run/step_1.jsonl"
	var out strings.Builder
	reportUpdate(&out, loaders.Update{Gone: []string{never, read}, Errs: []loaders.FileError{{Path: never, Err: &loaders.VanishedError{Path: never}}}})
	if strings.Contains(out.String(), never+": gone") {
		t.Errorf("%s, never read, said gone with what was read from it staying:\n%s", never, out.String())
	}
	if !strings.Contains(out.String(), "appeared and went before it was read") {
		t.Errorf("%s not said to have gone before it was read:\n%s", never, out.String())
	}
	if !strings.Contains(out.String(), read+": gone; what was read from it stays") {
		t.Errorf("%s, read, not said gone:\n%s", read, out.String())
	}
}
