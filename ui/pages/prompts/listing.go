package prompts

import (
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/floatorder"
	analysis "github.com/rewardlens/rewardlens/prompts"
)

// listing is an analysis as the tab lists it, made with the analysis off
// the event loop (analysisJob): each prompt's mean pass rate, its
// status's place in analysis.Statuses, the prompts by name and the
// number of prompts of each status.
type listing struct {
	analysis analysis.Analysis
	mean     []float64
	status   []uint8
	byName   []int
	counts   []analysis.StatusCount
}

// newListing returns the listing of a.
func newListing(a analysis.Analysis) listing {
	ps := a.Prompts
	l := listing{analysis: a, mean: make([]float64, len(ps)), status: make([]uint8, len(ps)), counts: a.Counts()}
	for i := range ps {
		l.mean[i] = meanPassRate(ps[i].History)
		l.status[i] = uint8(slices.Index(analysis.Statuses, ps[i].Status))
	}
	l.byName = nameOrder(len(ps), func(i int) string { return ps[i].Key })
	return l
}

// meanPassRate is the prompt's pass rate over all its completions:
// sum(Passed) / sum(N).
func meanPassRate(h []analysis.Point) float64 {
	passed, n := 0, 0
	for _, p := range h {
		passed += p.Passed
		n += p.N
	}
	return float64(passed) / float64(n)
}

// listOrder is how the prompts are listed: by sort column, descending or
// not, those matching filter (lower case): a part of the name or the
// start of the status, each in lower case ("solved" is not "unsolved").
type listOrder struct {
	column int
	desc   bool
	filter string
}

// matches reports whether filter (lower case) lists p: it is empty, a
// part of p's name or the start of its status, in lower case.
func matches(p *analysis.Prompt, filter string) bool {
	return filter == "" || strings.Contains(strings.ToLower(p.Key), filter) || strings.HasPrefix(strings.ToLower(string(p.Status)), filter)
}

// rowsOf appends to rows the prompts o lists, in its order, sorted with buf
// as a buffer; it returns them and the buffer left. The rows are sorted
// by the column, ties by name: status in Statuses' order, never-solved
// prompts after the solved ones by first solved. Listed by name first,
// each sort is a stable sort by the column alone: by counting the
// statuses, by radix on the other columns (floatorder), and for the name
// by reversing the rows when descending.
func (l *listing) rowsOf(rows, buf []int, o listOrder) (listed, spare []int) {
	ps := l.analysis.Prompts
	rows = slices.Grow(rows, len(l.byName))
	for _, i := range l.byName {
		p := &ps[i]
		if matches(p, o.filter) {
			rows = append(rows, i)
		}
	}
	switch o.column {
	case byStatus:
		return l.sortByStatus(rows, buf, o.desc)
	case byFirstSolved:
		floatorder.Sort(rows, 1, func(_, i int) uint64 {
			step := int64(math.MaxInt64) // never solved: last
			if ps[i].HasSolved {
				step = ps[i].FirstSolved
			}
			solved := uint64(step) ^ 1<<63 // in int64's order
			if o.desc {
				return ^solved
			}
			return solved
		})
	case byMean:
		key := floatorder.Key
		if o.desc {
			key = floatorder.Descending
		}
		floatorder.Sort(rows, 1, func(_, i int) uint64 { return key(l.mean[i]) })
	case byName:
		if o.desc {
			reverseRuns(rows, func(a, b int) bool { return ps[a].Key == ps[b].Key })
		}
	}
	return rows, buf
}

// sortByStatus sorts rows stably by status, in Statuses' order or
// reversed, counting the rows of each, into buf; it returns the sorted
// rows and the other slice.
func (l *listing) sortByStatus(rows, buf []int, desc bool) (sorted, spare []int) {
	place := func(i int) int {
		if desc {
			return len(analysis.Statuses) - 1 - int(l.status[i])
		}
		return int(l.status[i])
	}
	starts := make([]int, len(analysis.Statuses)+1)
	for _, i := range rows {
		starts[place(i)+1]++
	}
	for s := 1; s < len(starts); s++ {
		starts[s] += starts[s-1]
	}
	buf = slices.Grow(buf[:0], len(rows))[:len(rows)]
	for _, i := range rows {
		buf[starts[place(i)]] = i
		starts[place(i)]++
	}
	return buf, rows
}

// reverseRuns reverses the order of rows' runs of equal rows (same),
// keeping each run's own order: a stable sort descending of rows sorted
// ascending.
func reverseRuns(rows []int, same func(a, b int) bool) {
	slices.Reverse(rows)
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && same(rows[hi], rows[lo]) {
			hi++
		}
		slices.Reverse(rows[lo:hi])
		lo = hi
	}
}
