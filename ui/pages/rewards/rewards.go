package rewards

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/stats"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/histogram"
)

// summaryWidth is the width of the Rewards tab's summary panel: a name and
// two columns as wide as common.FormatNumber's widest output ("-99999.9999").
const summaryWidth = 32

// rewardsTab shows the current method's rewards for the shown batch: their
// histogram and the scores' beside the batch's summary statistics.
type rewardsTab struct {
	common        *common.Common
	width, height int
	// What SessionChangedMsg derives from the session; SetSize only draws
	// it again.
	stats           diagnose.BatchStats
	droppedGroups   int
	rewards, scores []float64
	// rewardsBins are the rewards binned for their chart, nil until
	// drawn; spare is the buffer the next PrepareJob gathers the rewards
	// into, and prepared that job's, until refresh takes it.
	rewardsBins *histogram.Bins
	spare       []float64
	prepared    common.Prepared[prepared]
	view        string
	// scoresOf says which scores t.scores holds, and scoresView, drawn at
	// scoresAt, shows: a method switch keeps the scores (the same array),
	// so their histogram is not binned again.
	scoresOf   scoresKey
	scoresView string
	scoresAt   scoresDrawing
	// wait is the statistics computed off the event loop when the
	// session has not (common.StatsWait).
	wait common.StatsWait
}

// prepared is the shown rewards of a recompute's result and their bins,
// made beside its statistics (PrepareJob) for the refresh on that result
// to take (common.Prepared).
type prepared struct {
	res     *engine.Result
	batch   *engine.Batch
	members int
	rewards []float64
	bins    histogram.Bins
}

// scoresKey names the scores of a batch: the evaluation, its scores
// array and the batch's step and size.
type scoresKey struct {
	ev      *engine.Evaluation
	scores  *float64
	step    int64
	members int
}

// scoresDrawing is what the scores' histogram was drawn for: the
// background of the styles (rebuilt in place for another one) and the
// size.
type scoresDrawing struct {
	dark          bool
	width, height int
}

// New returns the Rewards tab.
func New(c *common.Common) common.Tab { return &rewardsTab{common: c} }

func (t *rewardsTab) Title() string { return "Rewards" }

// SetSize implements Component.
func (t *rewardsTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.render()
}

// Update implements Component.
func (t *rewardsTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		t.refresh()
	case common.StatsReadyMsg:
		if t.wait.Ready(msg) {
			t.refresh()
		}
	case common.HiddenMsg: // what only speeds up the next switch
		t.spare = nil
		t.prepared.Drop()
	}
	return t, nil
}

// PrepareJob implements common.JobPreparer: the rewards of the batch
// shown, gathered and binned for their chart beside the recompute's
// statistics, whose reward summary the bins come from (diagnose.StatsOf
// waits for the recompute's own computation of them, engine.Cached), so
// that the switch's refresh on the event loop does not bin them.
func (t *rewardsTab) PrepareJob() func(res *engine.Result, _ func() *engine.Result) {
	s := t.common.Session
	if s.Result == nil || t.width <= 0 || t.height <= 0 {
		return nil
	}
	prepare := t.prepared.Start(prepared{rewards: t.spare[:0]})
	t.spare = nil
	bi, width := s.Batch, t.chartWidth()
	return func(res *engine.Result, _ func() *engine.Result) {
		prepare(func(p *prepared) {
			b := &res.Ranking.Batches[min(max(bi, 0), len(res.Ranking.Batches)-1)]
			st := diagnose.StatsOf(res, b)
			p.rewards = common.AppendShownRewards(p.rewards, res, b)
			p.bins = histogram.Histogram{Values: p.rewards, Summary: &st.Reward}.BinsOf(width)
			p.res, p.batch, p.members = res, b, len(b.Members)
		})
	}
}

// takePrepared returns what PrepareJob made of batch b of res, or nil:
// none made, still making (kept for a later refresh), or made of another.
func (t *rewardsTab) takePrepared(res *engine.Result, b *engine.Batch) *prepared {
	p := t.prepared.Take()
	if p == nil {
		return nil
	}
	if p.res != res || p.batch != b || p.members != len(b.Members) {
		t.spare = p.rewards
		return nil
	}
	return p
}

// Job implements common.Worker: the batch's statistics, when the session
// has not computed them.
func (t *rewardsTab) Job() func() tea.Msg { return t.wait.Job() }

// ShowsStats implements common.StatsShower.
func (t *rewardsTab) ShowsStats() {}

// View implements Component.
func (t *rewardsTab) View() string {
	if v, waits := t.wait.View(t.common.Styles, t.width, t.height); waits {
		return v
	}
	return t.view
}

// ShortHelp implements help.KeyMap: the tab has no keys of its own.
func (t *rewardsTab) ShortHelp() []key.Binding { return nil }

// FullHelp implements help.KeyMap.
func (t *rewardsTab) FullHelp() [][]key.Binding { return nil }

// refresh takes the shown batch's values and statistics from the session,
// once they are computed.
func (t *rewardsTab) refresh() {
	s := t.common.Session
	if t.wait.Wait(s) {
		return
	}
	b := s.CurrentBatch()
	t.stats = s.BatchStats()
	t.droppedGroups = 0
	if t.stats.Dropped > 0 {
		t.droppedGroups = droppedGroups(s.Result.Evaluation, b)
	}
	if t.rewards == nil {
		t.rewards, t.scores = make([]float64, 0, len(b.Members)), make([]float64, 0, len(b.Members))
	}
	if p := t.takePrepared(s.Result, b); p != nil {
		t.spare, t.rewards, t.rewardsBins = t.rewards, p.rewards, &p.bins
	} else {
		t.rewards, t.rewardsBins = common.AppendShownRewards(t.rewards[:0], s.Result, b), nil
	}
	key := scoresKey{ev: s.Result.Evaluation, step: b.Step, members: len(b.Members)}
	if len(s.Result.Scores) > 0 {
		key.scores = &s.Result.Scores[0]
	}
	if key != t.scoresOf {
		t.scores = common.AppendValidValues(t.scores[:0], s.Result, b, s.Result.Scores)
		t.scoresOf, t.scoresView = key, ""
	}
	t.render()
}

// render draws the two histograms, one above the other, left of the
// summary.
func (t *rewardsTab) render() {
	if t.rewards == nil || t.width <= 0 || t.height <= 0 {
		return // no session or no size yet: binning a large batch for nothing
	}
	st, opts := t.common.Styles, t.common.Session.Result.Options
	chartWidth := t.chartWidth()
	top := t.height / 2
	rewards := histogram.Histogram{
		Title:    rewardsTitle(opts, chartWidth),
		Quantity: "reward",
		Values:   t.rewards,
		Summary:  &t.stats.Reward,
		Bins:     t.rewardsBins,
	}
	scores := histogram.Histogram{
		Title:    "Scores: " + common.ScoreFormula(t.common.Session.Result, chartWidth-len("Scores: ")),
		Quantity: "score",
		Values:   t.scores,
		Summary:  &t.stats.Score,
	}
	// The two charts are drawn on both cores: each bins a batch's values,
	// which at a million takes longer than the rest of a frame.
	var wg sync.WaitGroup
	if at := (scoresDrawing{st.IsDark, chartWidth, t.height - top}); t.scoresView == "" || at != t.scoresAt {
		wg.Go(func() { t.scoresView, t.scoresAt = scores.View(st, chartWidth, t.height-top), at })
	}
	if t.rewardsBins == nil || t.rewardsBins.Width != chartWidth {
		bins := rewards.BinsOf(chartWidth)
		t.rewardsBins, rewards.Bins = &bins, &bins
	}
	rewardsView := rewards.View(st, chartWidth, top-1)
	wg.Wait()
	scoresView := t.scoresView
	charts := lipgloss.JoinVertical(lipgloss.Left,
		common.FitBox(rewardsView, chartWidth, top),
		common.FitBox(scoresView, chartWidth, t.height-top),
	)
	t.view = lipgloss.JoinHorizontal(lipgloss.Top, charts, "  ", summaryView(st, &t.stats, len(t.common.Session.CurrentBatch().Groups), t.droppedGroups))
}

// chartWidth is the width of the two charts, left of the summary.
func (t *rewardsTab) chartWidth() int { return max(t.width-summaryWidth-2, 0) }

// droppedGroups counts b's comparison groups that the group filter
// dropped (ev.Dropped): those without a valid member that hold a dropped
// one, as the filter drops a group's valid members and leaves none.
func droppedGroups(ev *engine.Evaluation, b *engine.Batch) int {
	n := 0
	for _, g := range b.Groups {
		if !slices.ContainsFunc(g.Members, func(i int) bool { return ev.Valid[i] }) && ev.DroppedIn(g.Members) > 0 {
			n++
		}
	}
	return n
}

// rewardsTitle names the method and how it makes the rewards in width
// cells: the method's note (engine.MethodSpec.Note) whole when it fits,
// else, for a method that reads the scale (grpo), the std it divides by
// in fewer words ("scaled by group std", "÷ batch std"), which a cut
// would leave out.
func rewardsTitle(opts engine.Options, width int) string {
	title := fmt.Sprintf("Rewards: %s, %s", opts.Method, engine.Spec(opts.Method).Note(opts))
	// The weights' clause goes whole before the note is cut (at a word:
	// the histogram's title, common.FitWords).
	if weights := title + "; the weights (w) change the score only"; !opts.Method.RewardsWeighted() && ansi.StringWidth(weights) <= width {
		title = weights
	}
	if ansi.StringWidth(title) <= width || !engine.Spec(opts.Method).ReadsScale || !opts.Normalize || opts.Scale == engine.ScaleNone {
		return title
	}
	std := string(opts.Scale)
	if opts.Scope == engine.ScopeBatch { // the group is the batch
		std = string(engine.ScopeBatch)
	}
	if short := fmt.Sprintf("Rewards: %s, per %s, scaled by %s std", opts.Method, opts.Scope, std); ansi.StringWidth(short) <= width {
		return short
	}
	return fmt.Sprintf("Rewards: %s ÷ %s std", opts.Method, std)
}

// summaryView renders the batch's reward and score statistics side by side
// and the group counts: groups the batch's comparison groups, as the
// Groups tab lists them, of which bs.Groups hold a valid trajectory and
// dropped are the group filter's (not invalid data: said apart from those
// without a valid member). A statistic of no value shows "–" (the chart
// says there is none), not NaN.
func summaryView(st *common.Styles, bs *diagnose.BatchStats, groups, dropped int) string {
	row := func(name, reward, score string) string {
		return st.Label.Render(fmt.Sprintf("%-8s", name)) + st.Value.Render(fmt.Sprintf("%11s %11s", reward, score))
	}
	number := func(s stats.Summary, v float64) string {
		if s.Count == 0 {
			return "–"
		}
		return common.FormatNumber(v)
	}
	stat := func(name string, pick func(stats.Summary) float64) string {
		return row(name, number(bs.Reward, pick(bs.Reward)), number(bs.Score, pick(bs.Score)))
	}
	zeroStd := "–"
	if bs.Groups > 0 {
		zeroStd = common.FormatNumber(bs.FracZeroStdGroups)
	}
	groupsLine := st.Label.Render("groups       ") + st.Value.Render(fmt.Sprint(groups))
	if bs.Groups > 0 {
		groupsLine += st.Label.Render("  fronts ≤ ") + st.Value.Render(fmt.Sprint(bs.Fronts))
	}
	lines := []string{
		st.Title.Render(fmt.Sprintf("Summary of step %d", bs.Step)),
		st.Label.Render(fmt.Sprintf("%-8s%11s %11s", "", "reward", "score")),
		row("count", fmt.Sprint(bs.Reward.Count), fmt.Sprint(bs.Score.Count)),
		stat("mean", func(s stats.Summary) float64 { return s.Mean }),
		stat("std", func(s stats.Summary) float64 { return s.Std }),
		stat("min", func(s stats.Summary) float64 { return s.Min }),
		stat("p25", func(s stats.Summary) float64 { return s.P25 }),
		stat("median", func(s stats.Summary) float64 { return s.Median }),
		stat("p75", func(s stats.Summary) float64 { return s.P75 }),
		stat("max", func(s stats.Summary) float64 { return s.Max }),
		"",
		st.Label.Render("frac_zero_std_groups ") + st.Value.Render(zeroStd),
		st.Muted.Render("(groups whose scores all equal:"),
		st.Muted.Render(" no signal for grpo, rloo)"),
		"",
		st.Label.Render("trajectories ") + st.Value.Render(fmt.Sprint(bs.Trajectories)) +
			st.Label.Render("  invalid ") + invalidCount(st, bs.Invalid),
	}
	if bs.Dropped > 0 { // by the group filter: not invalid data
		lines = append(lines, st.Label.Render("dropped      ")+st.Value.Render(fmt.Sprint(bs.Dropped))+st.Muted.Render(" by the filter"))
	}
	lines = append(lines, groupsLine)
	switch empty := groups - bs.Groups - dropped; {
	case empty > 0 && bs.Groups == 0 && dropped == 0:
		lines = append(lines, st.Warning.Render(" none with a valid member"))
	case empty > 0:
		lines = append(lines, st.Warning.Render(fmt.Sprintf(" %d without a valid member", empty)))
	}
	if dropped > 0 {
		lines = append(lines, st.Muted.Render(fmt.Sprintf(" %d dropped by the filter", dropped)))
	}
	lines = append(lines, st.Label.Render("frontier     ")+st.Value.Render(fmt.Sprint(bs.FrontierSize))+
		st.Muted.Render(" of rank 0"))
	return strings.Join(lines, "\n")
}

// invalidCount renders n, highlighted when some trajectories are invalid.
func invalidCount(st *common.Styles, n int) string {
	if n > 0 {
		return st.Invalid.Render(fmt.Sprintf("! %d", n))
	}
	return st.Value.Render("0")
}
