package prompts

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/natural"
	"github.com/rewardlens/rewardlens/prompts"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// comparedRows is the rows' order by a comparison sort, what the tab
// listed before it sorted by counting and radix: the prompts that match
// filter, in order of first appearance, sorted stably by column (status in
// Statuses' order, never-solved last by first solved, mean pass rate,
// name), descending or not, ties by name ascending.
func comparedRows(t *promptsTab, column int, desc bool, filter string) []int {
	ps := t.analysis.Prompts
	var rows []int
	for i := range ps {
		if filter == "" || strings.Contains(strings.ToLower(ps[i].Key), filter) || strings.HasPrefix(string(ps[i].Status), filter) {
			rows = append(rows, i)
		}
	}
	solved := func(i int) int64 {
		if ps[i].HasSolved {
			return ps[i].FirstSolved
		}
		return 1<<63 - 1
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		var c int
		switch column {
		case byStatus:
			c = cmp.Compare(slices.Index(prompts.Statuses, ps[a].Status), slices.Index(prompts.Statuses, ps[b].Status))
		case byFirstSolved:
			c = cmp.Compare(solved(a), solved(b))
		case byMean:
			c = cmp.Compare(t.mean[a], t.mean[b])
		case byName:
			c = natural.Compare(ps[a].Key, ps[b].Key)
		}
		if desc {
			c = -c
		}
		return cmp.Or(c, natural.Compare(ps[a].Key, ps[b].Key))
	})
	return rows
}

// TestPromptsSortAsComparison: on 300 prompts over 4 steps, many tied in
// status, first solved step and mean pass rate, every sort column in both
// directions, with and without a filter, lists the rows as the comparison
// sort does, and keeps the selected prompt selected.
func TestPromptsSortAsComparison(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	pass := func(p int) int { // prompt p passes with probability p%5 / 4
		if rng.Float64() < float64(p%5)/4 {
			return 1
		}
		return 0
	}
	var b strings.Builder
	for step := range 4 {
		for _, p := range rng.Perm(300) {
			for c := range 2 {
				fmt.Fprintf(&b, `{"id":"%d-%d-%d","group":"prompt %d","batch":%d,"metadata":{"a":%d,"b":%d}}`+"\n", step, p, c, p, step, pass(p), c)
			}
		}
	}
	tab := settledTab(uitest.TextSession(t, b.String()))
	for _, filter := range []string{"", "1", "never"} {
		if filter != "" {
			uitest.PressKeys(tab, "/")
			for _, r := range filter {
				uitest.PressKeys(tab, string(r))
			}
			uitest.PressKeys(tab, "enter")
		}
		for column := range sortColumns {
			for _, desc := range []bool{false, true} {
				uitest.PressKeys(tab, "down", "down", "down")
				selected := tab.selected().Key
				tab.list.SortColumn, tab.list.Descending = column, desc
				tab.rebuild()
				want := comparedRows(tab, column, desc, filter)
				if len(want) < 10 {
					t.Fatalf("filter %q lists %d prompts: too few to test", filter, len(want))
				}
				if !slices.Equal(tab.rows, want) {
					t.Errorf("filter %q, column %s, descending %v: rows %v, want %v", filter, sortTitles[column], desc, tab.rows[:10], want[:10])
				}
				if got := tab.selected().Key; got != selected {
					t.Errorf("filter %q, column %s, descending %v: %s selected, want %s still", filter, sortTitles[column], desc, got, selected)
				}
			}
		}
		uitest.PressKeys(tab, "/", "esc")
	}
}

// TestReverseRuns: a descending stable sort of rows sorted ascending, on
// runs of equal rows.
func TestReverseRuns(t *testing.T) {
	rows := []int{10, 11, 20, 30, 31, 32}
	reverseRuns(rows, func(a, b int) bool { return a/10 == b/10 })
	if want := []int{30, 31, 32, 20, 10, 11}; !slices.Equal(rows, want) {
		t.Errorf("reversed runs %v, want %v", rows, want)
	}
}
