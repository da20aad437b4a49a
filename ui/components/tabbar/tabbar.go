// Package tabbar is the dashboard's line of tab titles, under the header.
package tabbar

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

// Bar lays out the tab titles on one line, "[1 Rewards]" for the active
// tab and " 2 Objectives " for the others: the brackets say which is active
// without colour, and take the place of the spaces so that no title moves
// when another is selected (which keeps mouse hit-testing simple).
type Bar struct {
	labels []string
}

// New returns the bar of tabs, numbered from 1 in their order.
func New(tabs []common.Tab) Bar {
	labels := make([]string, len(tabs))
	for i, t := range tabs {
		labels[i] = fmt.Sprintf("%d %s", i+1, t.Title())
	}
	return Bar{labels: labels}
}

// View renders the bar with tab active selected, cut to width. When the
// bar does not fit, it is compact: one space after each title and the
// active one marked by its style alone (reverse video without colour);
// when that does not fit either, the longest titles are shortened.
func (b Bar) View(st *common.Styles, active, width int) string {
	var sb strings.Builder
	compact := b.compact(width)
	for i, l := range b.fitted(width) {
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

// compact reports whether the bar is drawn compact at width.
func (b Bar) compact(width int) bool {
	total := 0
	for _, l := range b.labels {
		total += ansi.StringWidth(l) + 2
	}
	return total > width
}

// minTitle is the fewest cells a shortened title keeps, its "…" included.
const minTitle = 4

// fitted returns the labels as drawn at width: whole when the compact bar
// fits, else with the longest titles cut one cell at a time (ending in
// "…", each keeping its number and minTitle cells) until it fits or none
// can be cut.
func (b Bar) fitted(width int) []string {
	labels := slices.Clone(b.labels)
	if !b.compact(width) {
		return labels
	}
	cells := make([]int, len(labels))
	total := 0
	for i, l := range labels {
		cells[i] = ansi.StringWidth(l)
		total += cells[i] + 1
	}
	for total > width {
		longest := 0
		for i := range cells {
			if cells[i] > cells[longest] {
				longest = i
			}
		}
		number := len(fmt.Sprint(longest+1)) + 1
		if cells[longest]-number <= minTitle {
			break
		}
		cells[longest]--
		total--
	}
	for i, l := range labels {
		if ansi.StringWidth(l) > cells[i] {
			labels[i] = ansi.Truncate(l, cells[i], "…")
		}
	}
	return labels
}

// TabAt returns the tab drawn at column x of a bar of width cells, or -1.
func (b Bar) TabAt(x, width int) int {
	pad := 2
	if b.compact(width) {
		pad = 1
	}
	start := 0
	for i, l := range b.fitted(width) {
		end := start + ansi.StringWidth(l) + pad
		if x >= start && x < end {
			return i
		}
		start = end
	}
	return -1
}
