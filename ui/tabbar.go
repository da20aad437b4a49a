package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

// tabBar lays out the tab titles on one line, "[1 Rewards]" for the active
// tab and " 2 Objectives " for the others: the brackets say which is active
// without colour, and take the place of the spaces so that no title moves
// when another is selected (which keeps mouse hit-testing simple).
type tabBar struct {
	labels []string
}

func newTabBar(tabs []common.Tab) tabBar {
	labels := make([]string, len(tabs))
	for i, t := range tabs {
		labels[i] = fmt.Sprintf("%d %s", i+1, t.Title())
	}
	return tabBar{labels: labels}
}

// view renders the bar with tab active selected, cut to width. When the
// bar does not fit, it is compact: one space after each title and the
// active one marked by its style alone (reverse video without colour).
func (b tabBar) view(st *common.Styles, active, width int) string {
	var sb strings.Builder
	compact := b.compact(width)
	for i, l := range b.labels {
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
func (b tabBar) compact(width int) bool {
	total := 0
	for _, l := range b.labels {
		total += ansi.StringWidth(l) + 2
	}
	return total > width
}

// tabAt returns the tab drawn at column x of a bar of width cells, or -1.
func (b tabBar) tabAt(x, width int) int {
	pad := 2
	if b.compact(width) {
		pad = 1
	}
	start := 0
	for i, l := range b.labels {
		end := start + ansi.StringWidth(l) + pad
		if x >= start && x < end {
			return i
		}
		start = end
	}
	return -1
}
