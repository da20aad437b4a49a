package list

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

func newTestList() List {
	keys := KeyMap{
		Sort:        key.NewBinding(key.WithKeys("s")),
		Reverse:     key.NewBinding(key.WithKeys("S")),
		Filter:      key.NewBinding(key.WithKeys("/")),
		ApplyFilter: key.NewBinding(key.WithKeys("enter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc")),
	}
	l := New(common.NewStyles(true, true), keys, "id")
	l.SetSize(40, 10)
	return l
}

// TestTypeFilter types a filter, keeps it, then types another and clears
// it.
func TestTypeFilter(t *testing.T) {
	l := newTestList()
	l.StartFilter()
	for _, k := range []string{"A", "b"} {
		if _, done, _ := l.TypeFilter(uitest.KeyPress(k)); done {
			t.Fatalf("typing %q ended the typing", k)
		}
	}
	if l.FilterText() != "ab" || !l.Filtered() {
		t.Fatalf("the filter is %q, want ab in lower case", l.FilterText())
	}
	if _, done, kept := l.TypeFilter(uitest.KeyPress("enter")); !done || !kept || l.FilterText() != "ab" {
		t.Errorf("enter: done %v, kept %v, filter %q", done, kept, l.FilterText())
	}
	if _, done, kept := l.TypeFilter(uitest.KeyPress("esc")); !done || kept || l.Filtered() {
		t.Errorf("esc: done %v, kept %v, filter %q", done, kept, l.FilterText())
	}
}

// TestSorting: s goes round the columns, S turns the direction, other
// keys are not the sort's.
func TestSorting(t *testing.T) {
	l := newTestList()
	for _, want := range []int{1, 2, 0} {
		if !l.Sorting(uitest.KeyPress("s"), 3) || l.SortColumn != want {
			t.Errorf("s: column %d, want %d", l.SortColumn, want)
		}
	}
	if !l.Sorting(uitest.KeyPress("S"), 3) || !l.Descending || l.SortTitle("reward") != "reward ▼" {
		t.Errorf("S: descending %v, title %q", l.Descending, l.SortTitle("reward"))
	}
	if l.Sorting(uitest.KeyPress("x"), 3) {
		t.Error("x changed the sort")
	}
}

// TestStatus joins the parts that are not empty, adds the kept filter, and
// cuts the line to the width; while typing it is the filter.
func TestStatus(t *testing.T) {
	l := newTestList()
	st := common.NewStyles(true, true)
	if got := ansi.Strip(l.Status(st, false, "3 rows", "", "sorted")); got != "3 rows · sorted" {
		t.Errorf("status %q", got)
	}
	l.Filter.SetValue("abc")
	if got := ansi.Strip(l.Status(st, false, "3 rows")); got != "3 rows · filter abc" {
		t.Errorf("status with a filter %q", got)
	}
	if got := ansi.Strip(l.Status(st, false, strings.Repeat("x", 60))); ansi.StringWidth(got) != 40 || !strings.HasSuffix(got, "· filter abc") {
		t.Errorf("a long status is not cut to 40 cells, its filter kept: %q", got)
	}
	if got := ansi.Strip(l.Status(st, true, "3 rows")); !strings.HasPrefix(got, "/abc") {
		t.Errorf("while typing the status is %q, want the filter", got)
	}
}

// TestStatusKeepsTheFilter: a status line too wide is cut after a word
// of its parts, the last ones first, and keeps what the user typed whole
// (up to textsafe.Shorten's length).
func TestStatusKeepsTheFilter(t *testing.T) {
	l := newTestList()
	st := common.NewStyles(true, true)
	parts := []string{"16 prompts never 1 learned 9", "by status ▲"}
	l.Filter.SetValue("solved")
	if got := ansi.Strip(l.Status(st, false, parts...)); got != "16 prompts never 1… · filter solved" {
		t.Errorf("status %q, want its first words and the whole filter", got)
	}
	l.Filter.SetValue(strings.Repeat("long filter ", 5))
	l.SetSize(80, 10)
	want := "filter " + textsafe.Shorten(l.Filter.Value())
	if got := ansi.Strip(l.Status(st, false, parts...)); !strings.HasSuffix(got, " · "+want) || ansi.StringWidth(got) > 80 {
		t.Errorf("status %q, want it to end in %q, within 80 cells", got, want)
	}
}

// TestOpenAndReread opens a trajectory of the sample into the reader.
func TestOpenAndReread(t *testing.T) {
	s := uitest.SampleSession(t)
	c := &common.Common{Width: 80, Height: 20, Styles: common.NewStyles(true, true), Session: s}
	l := newTestList()
	i := s.CurrentBatch().Members[3]
	l.Open(c, i)
	id := s.Trajectories.At(i).ID
	if l.Opened.I != i || !strings.Contains(l.Reader.View(), id) {
		t.Fatalf("the reader does not show %s:\n%s", id, l.Reader.View())
	}
	if got := ansi.Strip(l.ReaderStatus(c.Styles, " · note")); !strings.HasPrefix(got, id+" · note · ") || !strings.HasSuffix(got, "%") {
		t.Errorf("reader status %q", got)
	}
	l.Reread(c)
	if !strings.Contains(l.Reader.View(), id) {
		t.Errorf("reread, the reader does not show %s", id)
	}
}
