package common

import (
	"image/color"
	"math"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/table"
	"charm.land/lipgloss/v2"
)

// Styles holds every lipgloss style of the dashboard, built once for the
// terminal's background (dark or light) and colour profile.
//
// With NO_COLOR every colour is lipgloss.NoColor and only text attributes
// (bold, reverse, underline) remain, which NO_COLOR allows; whatever a
// colour means must therefore also be said in text (a marker, a legend, a
// number).
type Styles struct {
	// NoColor reports that the styles carry no colour (NO_COLOR is set);
	// IsDark, that their colours are for a dark background.
	NoColor, IsDark bool

	// The frame: header line, tab bar, status line and footer.
	Header      lipgloss.Style
	HeaderKey   lipgloss.Style // "method:", "scope:"...
	HeaderValue lipgloss.Style // what follows them
	TabActive   lipgloss.Style // the tab shown, in the tab bar
	TabInactive lipgloss.Style // the other tabs
	Status      lipgloss.Style // the status line
	Warning     lipgloss.Style // a warning in the status line
	Invalid     lipgloss.Style // invalid counts > 0 and errors
	Alert       lipgloss.Style // a health ALERT: highlighted, even without colour
	Help        help.Styles    // the footer's key help
	Muted       lipgloss.Style // secondary text: units, hints, NaN

	// Tab bodies.
	Title     lipgloss.Style // the title of a chart or a panel
	Label     lipgloss.Style // a name in a name/value list
	Value     lipgloss.Style // a value in a name/value list
	Axis      lipgloss.Style // chart axis lines
	AxisLabel lipgloss.Style // tick labels and axis names
	Bar       lipgloss.Style // histogram bars and sparklines
	Selected  lipgloss.Style // the selected point, row or objective
	Positive  lipgloss.Style // a positive advantage, an agreement
	Negative  lipgloss.Style // a negative advantage, a disagreement
	Table     table.Styles   // bubbles tables

	// Rank colours the Pareto ranks 0, 1, 2 and >= 3 (index min(rank, 3)):
	// the frontier brightest, deeper ranks fading. RankMarkers are the
	// runes that tell the ranks apart without colour (× for ≥ 3, unlike
	// the dimmed groups' braille dots).
	Rank        [4]lipgloss.Style
	RankMarkers [4]rune

	// correlation is the diverging scale of Correlation, from -1 to +1.
	correlation []color.Color
	// correlationText is the text colour on the scale's backgrounds.
	correlationText color.Color
}

// correlationSteps is the number of colours of the correlation scale: odd,
// so that 0 has a colour of its own.
const correlationSteps = 11

// NewStyles returns the styles for a dark or light terminal background;
// noColor (NO_COLOR set) drops every colour.
func NewStyles(isDark, noColor bool) *Styles {
	p := newPalette(isDark, noColor)
	s := &Styles{
		NoColor:     noColor,
		IsDark:      isDark,
		Header:      lipgloss.NewStyle().Bold(true),
		HeaderKey:   lipgloss.NewStyle().Foreground(p.muted),
		HeaderValue: lipgloss.NewStyle().Bold(true).Foreground(p.text),
		TabActive:   lipgloss.NewStyle().Bold(true).Reverse(noColor).Foreground(p.onAccent).Background(p.accent),
		TabInactive: lipgloss.NewStyle().Foreground(p.muted),
		Status:      lipgloss.NewStyle().Foreground(p.muted),
		Warning:     lipgloss.NewStyle().Foreground(p.warning),
		Invalid:     lipgloss.NewStyle().Bold(true).Foreground(p.invalid),
		Alert:       lipgloss.NewStyle().Bold(true).Reverse(noColor).Foreground(p.onAccent).Background(p.invalid),
		Muted:       lipgloss.NewStyle().Foreground(p.muted),
		Title:       lipgloss.NewStyle().Bold(true).Foreground(p.title),
		Label:       lipgloss.NewStyle().Foreground(p.muted),
		Value:       lipgloss.NewStyle().Foreground(p.text),
		Axis:        lipgloss.NewStyle().Foreground(p.muted),
		AxisLabel:   lipgloss.NewStyle().Foreground(p.muted),
		Bar:         lipgloss.NewStyle().Foreground(p.bar),
		Selected:    lipgloss.NewStyle().Bold(true).Reverse(noColor).Foreground(p.onAccent).Background(p.accent),
		Positive:    lipgloss.NewStyle().Foreground(p.positive),
		Negative:    lipgloss.NewStyle().Foreground(p.negative),
		RankMarkers: [4]rune{'●', '◆', '▲', '×'},
	}
	for r, c := range p.ranks {
		s.Rank[r] = lipgloss.NewStyle().Foreground(c)
	}
	s.Help = help.Styles{
		ShortKey:       lipgloss.NewStyle().Foreground(p.text),
		ShortDesc:      lipgloss.NewStyle().Foreground(p.muted),
		ShortSeparator: lipgloss.NewStyle().Foreground(p.muted),
		Ellipsis:       lipgloss.NewStyle().Foreground(p.muted),
		FullKey:        lipgloss.NewStyle().Foreground(p.text),
		FullDesc:       lipgloss.NewStyle().Foreground(p.muted),
		FullSeparator:  lipgloss.NewStyle().Foreground(p.muted),
	}
	s.Table = table.Styles{
		Header:   lipgloss.NewStyle().Bold(true).Padding(0, 1).Foreground(p.title),
		Cell:     lipgloss.NewStyle().Padding(0, 1),
		Selected: s.Selected,
	}
	if !noColor {
		s.correlation = lipgloss.Blend1D(correlationSteps, p.correlationLow, p.neutral, p.correlationHigh)
		s.correlationText = p.text
	}
	return s
}

// Correlation returns the style of a correlation cell showing r: a
// background from the negative colour (-1) through neutral (0) to the
// positive one (+1). NaN and the no-colour styles get no background; the
// cell's text says the value anyway.
func (s *Styles) Correlation(r float64) lipgloss.Style {
	if s.correlation == nil || math.IsNaN(r) {
		return s.Muted
	}
	r = min(max(r, -1), 1)
	i := int(math.Round((r + 1) / 2 * (correlationSteps - 1)))
	return lipgloss.NewStyle().Background(s.correlation[i]).Foreground(s.correlationText)
}

// palette is the colours NewStyles builds its styles from.
type palette struct {
	text, muted, title, accent, onAccent color.Color
	warning, invalid, bar                color.Color
	positive, negative                   color.Color
	// The correlation scale: -1, 0 and +1, all light enough (light
	// background) or dark enough (dark one) to carry the text colour.
	correlationLow, neutral, correlationHigh color.Color
	ranks                                    [4]color.Color
}

func newPalette(isDark, noColor bool) palette {
	if noColor {
		none := lipgloss.NoColor{}
		return palette{
			text: none, muted: none, title: none, accent: none, onAccent: none,
			warning: none, invalid: none, bar: none,
			positive: none, negative: none,
			correlationLow: none, neutral: none, correlationHigh: none,
			ranks: [4]color.Color{none, none, none, none},
		}
	}
	ld := lipgloss.LightDark(isDark)
	c := lipgloss.Color
	return palette{
		text:     ld(c("#1C1C1C"), c("#E4E4E4")),
		muted:    ld(c("#6C6C6C"), c("#8A8A8A")),
		title:    ld(c("#5F00AF"), c("#AF87FF")),
		accent:   ld(c("#5F5FD7"), c("#5F5FD7")),
		onAccent: c("#FFFFFF"),
		warning:  ld(c("#AF5F00"), c("#FFAF5F")),
		invalid:  ld(c("#D70000"), c("#FF5F87")),
		bar:      ld(c("#005F87"), c("#5FAFD7")),
		positive: ld(c("#1F6FB2"), c("#5FAFFF")),
		negative: ld(c("#C0392B"), c("#FF6E6E")),

		correlationLow:  ld(c("#F4A6A6"), c("#A93A36")),
		neutral:         ld(c("#EEEEEE"), c("#3A3A3A")),
		correlationHigh: ld(c("#9FC5E8"), c("#2F5F9E")),
		// The frontier takes the strongest colour of the background, the
		// deeper ranks fade towards it.
		ranks: [4]color.Color{
			ld(c("#D75F00"), c("#FFD700")),
			ld(c("#005FD7"), c("#5FAFFF")),
			ld(c("#8700AF"), c("#AF87D7")),
			ld(c("#A8A8A8"), c("#585858")),
		},
	}
}
