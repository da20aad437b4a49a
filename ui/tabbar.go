package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// tabBar lays out the tab titles on one line, "[1 Rewards]" for the active
// tab and " 2 Objectives " for the others: the brackets say which is active
// without colour, and take the place of the spaces so that no title moves
// when another is selected (which keeps mouse hit-testing simple).
type tabBar struct {
	labels []string
}

func newTabBar(tabs []Tab) tabBar {
	labels := make([]string, len(tabs))
	for i, t := range tabs {
		labels[i] = fmt.Sprintf("%d %s", i+1, t.Title())
	}
	return tabBar{labels: labels}
}

// view renders the bar with tab active selected, cut to width.
func (b tabBar) view(st *Styles, active, width int) string {
	var sb strings.Builder
	for i, l := range b.labels {
		if i == active {
			sb.WriteString(st.TabActive.Render("[" + l + "]"))
		} else {
			sb.WriteString(st.TabInactive.Render(" " + l + " "))
		}
	}
	return ansi.Truncate(sb.String(), width, "…")
}

// tabAt returns the tab drawn at column x, or -1.
func (b tabBar) tabAt(x int) int {
	start := 0
	for i, l := range b.labels {
		end := start + ansi.StringWidth(l) + 2
		if x >= start && x < end {
			return i
		}
		start = end
	}
	return -1
}
