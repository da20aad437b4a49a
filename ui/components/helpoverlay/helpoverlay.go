// Package helpoverlay is the dashboard's full help, which ? opens over
// the tab: the active tab's keys, the global ones and each method's
// formula, scrollable.
package helpoverlay

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/ui/common"
)

// Overlay is the full help that ? opens over the tab: the active tab's
// keys, the global ones and each method's formula, scrollable; ? or esc
// closes it.
type Overlay struct {
	// Open is whether it is shown.
	Open     bool
	viewport viewport.Model
	keys     helpOverlayKeys
}

type helpOverlayKeys struct {
	Close, Scroll, Top, Bottom key.Binding
}

// New returns the overlay, closed.
func New() Overlay {
	return Overlay{
		viewport: viewport.New(),
		keys: helpOverlayKeys{
			Close:  key.NewBinding(key.WithKeys("?", "esc"), key.WithHelp("?/esc", "close the help")),
			Scroll: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓/pgup/pgdn", "scroll")),
			Top:    key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "top")),
			Bottom: key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "bottom")),
		},
	}
}

// ShortHelp returns the overlay's keys, which are all that work while it
// is open: the footer lists them then, not the tab's.
func (h *Overlay) ShortHelp() []key.Binding {
	return []key.Binding{h.keys.Close, h.keys.Scroll, h.keys.Top, h.keys.Bottom}
}

// Content is what the overlay shows.
type Content struct {
	// Layout is how the inputs were read and the method's settings, and
	// Warnings the status line's warnings, whole: the line cuts them to
	// the terminal's width.
	Layout   string
	Warnings []string
	// Notice is the status line's notice of what a command did (or why
	// it failed), whole and sanitised, "" for none.
	Notice string
	// Findings are the health findings, each whole (common.FindingText),
	// ALERTs first: the Steps tab cuts them to its width.
	Findings []string
	// Title names the section of Tab's keys; Global are the keys of
	// every tab.
	Title       string
	Tab, Global FullHelper
	// Options give the methods' formulas their settings (epsilon).
	Options engine.Options
}

// Show opens the overlay on c in width x height cells.
func (h *Overlay) Show(st *common.Styles, c Content, width, height int) {
	h.Open = true
	h.setSize(width, height)
	h.viewport.SetContent(Text(st, c, max(width-4, 1)))
	h.viewport.GotoTop()
}

// FullHelper is what the overlay lists the keys of.
type FullHelper interface{ FullHelp() [][]key.Binding }

func (h *Overlay) setSize(width, height int) {
	h.viewport.SetWidth(max(width-4, 1))   // the border and a space each side
	h.viewport.SetHeight(max(height-3, 1)) // the border and the title
}

// Update scrolls the overlay or closes it; every key goes to it while it
// is open.
func (h *Overlay) Update(msg tea.Msg) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, h.keys.Close):
			h.Open = false
			return
		case key.Matches(k, h.keys.Top):
			h.viewport.GotoTop()
			return
		case key.Matches(k, h.keys.Bottom):
			h.viewport.GotoBottom()
			return
		}
	}
	h.viewport, _ = h.viewport.Update(msg)
}

// View draws the overlay in a box of width x height cells.
func (h *Overlay) View(st *common.Styles, title string, width, height int) string {
	head := st.Title.Render("Help: "+title) + st.Muted.Render(" · ?/esc close · ↑/↓/pgup/pgdn/home/end scroll")
	if !h.viewport.AtBottom() || h.viewport.YOffset() > 0 {
		head += st.Muted.Render(fmt.Sprintf(" · %.0f%%", h.viewport.ScrollPercent()*100))
	}
	body := ansi.Truncate(head, max(width-4, 1), "…") + "\n" + h.viewport.View()
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(st.Muted.GetForeground()).
		Padding(0, 1).Width(width).Height(height).Render(body)
	return common.FitBox(box, width, height)
}

// hangingLine returns name padded to nameWidth and desc after it, desc
// wrapped to what is left of width with its lines under its first.
func hangingLine(st *common.Styles, name string, nameWidth int, desc string, width int) string {
	room := max(width-nameWidth-2, 8)
	lines := strings.Split(common.WrapAtSpaces(desc, room), "\n")
	indent := strings.Repeat(" ", nameWidth+2)
	for j, l := range lines {
		lines[j] = st.Muted.Render(strings.TrimRight(l, " "))
		if j > 0 {
			lines[j] = indent + lines[j]
		}
	}
	return common.PadRight(name, nameWidth) + "  " + strings.Join(lines, "\n") + "\n"
}

// Text lists c's notice, health findings and warnings, whole, the keys of its tab, the global keys
// and the methods, each
// with its formula under opts (engine.MethodSpec.Formula), then the
// formulas of constraints, gates and objective normalisation
// (scoring.StructureFormulas).
func Text(st *common.Styles, c Content, width int) string {
	opts := c.Options
	var sb strings.Builder
	section := func(title string) {
		if sb.Len() > 0 {
			sb.WriteString("\n")
		}
		sb.WriteString(st.Title.Render(title) + "\n")
	}
	bindings := func(groups [][]key.Binding) {
		seen := map[string]bool{}
		var rows [][2]string
		keyWidth := 0
		for _, g := range groups {
			for _, b := range g {
				hb := b.Help()
				if !listed(b) || seen[hb.Key+hb.Desc] {
					continue
				}
				seen[hb.Key+hb.Desc] = true
				rows = append(rows, [2]string{hb.Key, hb.Desc})
				keyWidth = max(keyWidth, ansi.StringWidth(hb.Key))
			}
		}
		for _, r := range rows {
			sb.WriteString(hangingLine(st, r[0], keyWidth, r[1], width))
		}
	}
	if c.Notice != "" {
		section("Notice")
		sb.WriteString(common.WrapAtSpaces(c.Notice, width) + "\n")
	}
	if len(c.Findings) > 0 {
		section("Health findings")
		for _, f := range c.Findings {
			sb.WriteString(common.WrapAtSpaces(f, width) + "\n")
		}
	}
	if c.Layout != "" {
		section("Inputs")
		sb.WriteString(st.Muted.Render(common.WrapAtSpaces(c.Layout, width)) + "\n")
	}
	if len(c.Warnings) > 0 {
		section("Warnings")
		for _, w := range c.Warnings {
			sb.WriteString(hangingLine(st, "⚠", 1, w, width))
		}
	}
	if tabKeys := c.Tab.FullHelp(); slices.ContainsFunc(tabKeys, func(g []key.Binding) bool {
		return slices.ContainsFunc(g, listed)
	}) {
		section(c.Title) // a tab without keys of its own has no section
		bindings(tabKeys)
	}
	section("Everywhere")
	bindings(c.Global.FullHelp())
	section("Methods")
	sb.WriteString(st.Muted.Render(common.WrapAtSpaces("s = sum_k w_k o'_k is the weighted score (min goals negated); z(x) = (x - mean) / std over the comparison group", width)) + "\n")
	nameWidth := 0
	for _, m := range engine.AllMethods() {
		nameWidth = max(nameWidth, len(m))
	}
	for _, m := range engine.AllMethods() {
		sb.WriteString(hangingLine(st, string(m), nameWidth, engine.Spec(m).Formula(opts), width))
	}
	section("Constraints, gates, normalisation")
	sb.WriteString(st.Muted.Render(common.WrapAtSpaces("--constraint, --gate and --normalize-objectives; constraints and gates see the raw values", width)) + "\n")
	nameWidth = 0
	for _, f := range scoring.StructureFormulas {
		nameWidth = max(nameWidth, len(f.Name))
	}
	for _, f := range scoring.StructureFormulas {
		sb.WriteString(hangingLine(st, f.Name, nameWidth, f.Formula, width))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// listed reports whether the help lists b: a key enabled now, as one that
// does nothing would mislead, or a note without keys (what a click does),
// which a tab's FullHelp leaves out where it does not apply.
func listed(b key.Binding) bool {
	return b.Help().Key != "" && (b.Enabled() || len(b.Keys()) == 0)
}

// Resize lays the open overlay out again for width x height, keeping its
// scroll position.
func (h *Overlay) Resize(st *common.Styles, c Content, width, height int) {
	offset := h.viewport.YOffset()
	h.Show(st, c, width, height)
	h.viewport.SetYOffset(offset)
}
