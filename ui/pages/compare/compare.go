package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"gonum.org/v1/gonum/floats"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/plot"
	"github.com/rewardlens/rewardlens/ui/session"
)

// comparePanelWidth is the width of the numbers beside the scatter.
const comparePanelWidth = 36

// The markers of the scatter: the methods push a trajectory the same way,
// or in opposite directions.
const (
	agreeRune  = '●'
	posNegRune = '▲' // positive advantage under A, negative under B
	negPosRune = '▼' // negative under A, positive under B
)

type compareKeyMap struct {
	NextB, PrevB key.Binding
}

func newCompareKeyMap() compareKeyMap {
	return compareKeyMap{
		NextB: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "next method B")),
		PrevB: key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "previous method B")),
	}
}

// compareTab sets the current method (A) against a second one (B) on the
// current batch: their rewards side by side and how much they agree.
type compareTab struct {
	common        *common.Common
	keys          compareKeyMap
	width, height int

	cmp engine.Comparison
	// b is the method B of cmp: the session's may have changed since, its
	// result still being computed.
	b     engine.Method
	chart *plot.Frame
	// collapse is the share of the batch's groups, of those holding
	// distinct objective vectors (groups), where distinct vectors get
	// identical rewards under A and under B (engine.Result.Collapse); B's
	// is NaN for the logged advantage.
	collapse [2]float64
	groups   int
}

// New returns the Compare tab.
func New(c *common.Common) common.Tab {
	return &compareTab{common: c, keys: newCompareKeyMap()}
}

func (t *compareTab) Title() string { return "Compare" }

func (t *compareTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.chart = t.newChart()
}

func (t *compareTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		return t, t.refresh()
	case tea.KeyPressMsg:
		return t, t.handleKey(msg)
	}
	return t, nil
}

func (t *compareTab) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, t.keys.NextB):
		return t.cycleB(1)
	case key.Matches(msg, t.keys.PrevB):
		return t.cycleB(-1)
	}
	return nil
}

// CompareOptions implements common.Comparer: method B's options, unless B
// is A or the logged advantage, which need no second compute.
func (t *compareTab) CompareOptions(opts engine.Options) (engine.Options, bool) {
	b := t.common.Session.CompareMethod
	if b == opts.Method || b == LoggedMethod {
		return opts, false
	}
	opts.Method = b
	return opts, true
}

// LoggedMethod is method B when it is the advantage the trainer logged
// (engine.Evaluation.Logged), which the inputs may carry: no method of
// rewardlens, but what to check the current method against.
const LoggedMethod engine.Method = "logged"

// methodsB returns the methods B can be: every method, and the logged
// advantage when the inputs have it.
func methodsB(s *session.Session) []engine.Method {
	if s.Result.Evaluation.Logged == nil {
		return engine.Methods
	}
	return append(slices.Clone(engine.Methods), LoggedMethod)
}

// cycleB asks for the method step places from B in methodsB, skipping A.
func (t *compareTab) cycleB(step int) tea.Cmd {
	s := t.common.Session
	methods := methodsB(s)
	n := len(methods)
	i := slices.Index(methods, s.CompareMethod)
	for {
		i = ((i+step)%n + n) % n
		if m := methods[i]; m != s.Result.Options.Method {
			return func() tea.Msg { return common.CompareMethodMsg{Method: m} }
		}
	}
}

// refresh compares the session's two results on the current batch. When
// A has just become B's method, it asks for another B instead: a method
// against itself says nothing.
func (t *compareTab) refresh() tea.Cmd {
	s := t.common.Session
	if s.CompareMethod == s.Result.Options.Method || (s.CompareMethod == LoggedMethod && s.Result.Evaluation.Logged == nil) {
		return t.cycleB(1)
	}
	if s.CompareMethod == LoggedMethod {
		t.cmp = engine.CompareWithLogged(s.Result, s.Batch)
	} else {
		t.cmp = engine.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	}
	t.collapse[1] = math.NaN()
	t.collapse[0], t.groups = s.Result.Collapse(s.CurrentBatch())
	if s.CompareMethod != LoggedMethod {
		t.collapse[1], _ = s.CompareResult().Collapse(&s.CompareResult().Ranking.Batches[s.Batch])
	}
	t.b = s.CompareMethod
	t.chart = t.newChart()
	return nil
}

// newChart draws reward B against reward A, one marker per trajectory,
// on nice axes with the zero advantages dotted.
func (t *compareTab) newChart() *plot.Frame {
	st := t.common.Styles
	x0, x1, y0, y1 := 0.0, 1.0, 0.0, 1.0
	if t.cmp.N > 0 {
		x0, x1 = floats.Min(t.cmp.A), floats.Max(t.cmp.A)
		y0, y1 = floats.Min(t.cmp.B), floats.Max(t.cmp.B)
	}
	w := max(t.width-comparePanelWidth-1, 10)
	h := max(t.height-3, 5) // under the title and the y axis name, over the x axis name
	f := plot.NewFrame(w, h,
		func(rows int) chart.Axis { return chart.Fit(y0, y1, rows, chart.Options{}) },
		func(cols int) chart.Axis { return chart.Fit(x0, x1, cols, chart.Options{LabelGap: true}) })
	f.VLine(0, '┊', st.Muted)
	f.HLine(0, '┈', st.Muted)
	for j, a := range t.cmp.A {
		b := t.cmp.B[j]
		marker, style := agreeRune, st.Positive
		switch {
		case a > 0 && b < 0:
			marker, style = posNegRune, st.Negative
		case a < 0 && b > 0:
			marker, style = negPosRune, st.Negative
		}
		f.Mark(a, b, marker, style)
	}
	f.DrawAxes(st.Axis, st.AxisLabel)
	return f
}

func (t *compareTab) View() string {
	s := t.common.Session
	if s.Result == nil || t.width <= 0 || t.b == "" || t.b == s.Result.Options.Method {
		return ""
	}
	st := t.common.Styles
	a, b := string(s.Result.Options.Method), string(t.b)
	title := st.Title.Render(fmt.Sprintf("Rewards of %s (A) against %s (B)", a, b))
	plot := lipgloss.JoinVertical(lipgloss.Left,
		st.AxisLabel.Render("↑ reward B: "+b),
		t.chart.View(),
		lipgloss.PlaceHorizontal(t.chart.Canvas.Width(), lipgloss.Right, st.AxisLabel.Render("reward A: "+a+" →")))
	body := lipgloss.JoinHorizontal(lipgloss.Top, plot, " ", t.panelView())
	return common.FitBox(lipgloss.JoinVertical(lipgloss.Left, title, body), t.width, t.height)
}

// panelView shows the methods, the agreement statistics and the legend.
func (t *compareTab) panelView() string {
	st := t.common.Styles
	s := t.common.Session
	c := t.cmp
	row := func(label, value string) string {
		return st.Label.Render(fmt.Sprintf("%-17s", label)) + " " + value
	}
	sections := []string{
		strings.Join([]string{
			row("A (m/M)", string(s.Result.Options.Method)),
			row("B (b/B)", string(t.b)),
			row("compared", common.Count(c.N, "trajectory", "trajectories")),
		}, "\n"),
		strings.Join([]string{
			st.Title.Render("rank agreement"),
			row("Spearman ρ", common.FormatValue(c.Spearman)),
			row("Kendall τ-b", common.FormatValue(c.Kendall)),
			row(fmt.Sprintf("top %.0f%% overlap", engine.TopFraction*100),
				fmt.Sprintf("%d of %d (%s)", c.TopShared, c.TopK, common.FormatValue(c.TopOverlap))),
		}, "\n"),
		strings.Join([]string{
			st.Title.Render("opposite advantages"),
			row("A +, B −", st.Negative.Render(fmt.Sprint(c.PosNeg))),
			row("A −, B +", st.Negative.Render(fmt.Sprint(c.NegPos))),
		}, "\n"),
		t.collapseView(row),
		t.legendView(),
	}
	if n := len(s.CurrentBatch().Members) - c.N; n > 0 {
		sections = append(sections, st.Warning.Render(common.Count(n, "invalid trajectory", "invalid trajectories")+" left out"))
	}
	return strings.Join(sections, "\n\n")
}

// collapseView shows, for A and B, how many of the batch's groups give
// distinct objective vectors identical rewards (TRL#4785's advantage
// collapse).
func (t *compareTab) collapseView(row func(label, value string) string) string {
	st := t.common.Styles
	lines := []string{st.Title.Render("collapsed groups")}
	if t.groups == 0 {
		return strings.Join(append(lines, st.Muted.Render("no group of distinct objectives")), "\n")
	}
	for k, name := range []string{"A", "B"} {
		if math.IsNaN(t.collapse[k]) {
			continue
		}
		n := int(math.Round(t.collapse[k] * float64(t.groups)))
		value := fmt.Sprintf("%d of %d groups", n, t.groups)
		if n > 0 {
			value = st.Negative.Render(value)
		}
		lines = append(lines, row(name+": tied rewards", value))
	}
	return strings.Join(lines, "\n")
}

func (t *compareTab) legendView() string {
	st := t.common.Styles
	return strings.Join([]string{
		st.Title.Render("legend"),
		st.Positive.Render(string(agreeRune)) + " same direction (or zero)",
		st.Negative.Render(string(posNegRune)) + " A +, B −",
		st.Negative.Render(string(negPosRune)) + " A −, B +",
		st.Muted.Render("┈┊") + " zero advantage",
	}, "\n")
}

func (t *compareTab) ShortHelp() []key.Binding { return []key.Binding{t.keys.NextB, t.keys.PrevB} }

func (t *compareTab) FullHelp() [][]key.Binding { return [][]key.Binding{t.ShortHelp()} }
