// Package tabbar is the dashboard's line of tab titles, under the header.
package tabbar

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

// Bar lays out the tab titles on one line, "[1 Rewards]" for the active
// tab and " 2 Objectives " for the others: the brackets say which is active
// without colour, and take the place of the spaces so that no title moves
// when another is selected.
//
// When that does not fit, the bar is compact: one space after each label
// and the active one marked by its style alone (reverse video without
// colour). Then, the first that fits of: every title whole; the inactive
// tabs' short titles (a tab's ShortTitle, "Trajs"; its title without
// one); the inactive tabs' numbers alone. The active tab keeps its whole
// title, and no title is cut within a word; there the labels move with
// the active tab, so a click is found with it (TabAt).
type Bar struct {
	labels, short []string
}

// shortTitled is a tab with a short title, a word or a usual abbreviation
// of its title, for a narrow bar.
type shortTitled interface {
	ShortTitle() string
}

// New returns the bar of tabs, numbered from 1 in their order.
func New(tabs []common.Tab) Bar {
	b := Bar{labels: make([]string, len(tabs)), short: make([]string, len(tabs))}
	for i, t := range tabs {
		b.labels[i] = fmt.Sprintf("%d %s", i+1, t.Title())
		b.short[i] = b.labels[i]
		if s, ok := t.(shortTitled); ok {
			b.short[i] = fmt.Sprintf("%d %s", i+1, s.ShortTitle())
		}
	}
	return b
}

// View renders the bar with tab active selected, cut to width (only
// narrower than the numbers alone).
func (b Bar) View(st *common.Styles, active, width int) string {
	var sb strings.Builder
	labels, compact := b.fitted(active, width)
	for i, l := range labels {
		switch {
		case compact && i == active:
			sb.WriteString(st.TabActive.Render(l) + " ")
		case compact:
			sb.WriteString(st.TabInactive.Render(l) + " ")
		case i == active:
			sb.WriteString(st.TabActive.Render("[" + l + "]"))
		default:
			sb.WriteString(st.TabInactive.Render(" " + l + " "))
		}
	}
	return ansi.Truncate(sb.String(), width, "…")
}

// fitted returns the labels as drawn at width with tab active selected,
// and whether the bar is compact (Bar).
func (b Bar) fitted(active, width int) (labels []string, compact bool) {
	if cells(b.labels, 2) <= width {
		return b.labels, false
	}
	if cells(b.labels, 1) <= width {
		return b.labels, true
	}
	labels = slices.Clone(b.short)
	labels[active] = b.labels[active]
	if cells(labels, 1) <= width {
		return labels, true
	}
	for i := range labels {
		if i != active {
			labels[i] = strconv.Itoa(i + 1)
		}
	}
	return labels, true
}

// cells returns the width of labels with pad cells each beside them.
func cells(labels []string, pad int) int {
	total := 0
	for _, l := range labels {
		total += ansi.StringWidth(l) + pad
	}
	return total
}

// TabAt returns the tab drawn at column x of a bar of width cells with
// tab active selected, or -1.
func (b Bar) TabAt(x, active, width int) int {
	labels, compact := b.fitted(active, width)
	pad := 2
	if compact {
		pad = 1
	}
	start := 0
	for i, l := range labels {
		end := start + ansi.StringWidth(l) + pad
		if x >= start && x < end {
			return i
		}
		start = end
	}
	return -1
}
