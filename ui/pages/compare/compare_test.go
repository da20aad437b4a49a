package compare

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/charmbracelet/x/exp/golden"
	"gonum.org/v1/gonum/floats"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

func TestGoldenCompare(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	golden.RequireEqual(t, uitest.Plain(tab))
}

func TestAbsDifference(t *testing.T) {
	// |1−0.5| = 0.5, |−1−1| = 2, |0.5−0.5| = 0: mean 2.5/3, max 2.
	mean, most := absDifference([]float64{1, -1, 0.5}, []float64{0.5, 1, 0.5})
	if math.Abs(mean-2.5/3) > 1e-12 || most != 2 {
		t.Errorf("absDifference = %v, %v; want 0.8333, 2", mean, most)
	}
}

// TestCompareFits50k draws 50,000 trajectories at 120x40: the panel keeps
// its numbers whole beside the plot, and the plot shades where points
// pile up instead of drawing a solid block of markers.
func TestCompareFits50k(t *testing.T) {
	s := uitest.SyntheticSession(t, 50_000)
	tab := uitest.TabOn(s, New)
	tab.SetSize(120, 40)
	uitest.Refresh(tab, s)
	view := uitest.Plain(tab)
	for i, line := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(line); w > 120 {
			t.Errorf("line %d is %d cells wide: %q", i, w, line)
		}
		if strings.Contains(line, "…") {
			t.Errorf("line %d is cut: %q", i, line)
		}
	}
	for _, want := range []string{"50000 trajectories", "top 10% share 1747/5000 (0.3494)"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in\n%s", want, view)
		}
	}
	shades := 0
	for _, r := range densityRunes {
		shades += strings.Count(view, string(r))
	}
	if shades == 0 || strings.Count(view, string(densityRunes[3])) == shades {
		t.Errorf("50,000 points are not shaded by density (%d shaded cells):\n%s", shades, view)
	}
}

// TestCompareRecyclesTheComparisonBefore: a comparison shown gives the
// buffers the arrays of the one it replaces that it does not share (A's
// side for a new A, the orders), and the next comparison takes them; not
// while a job taken by the root has not come back, which may read them.
func TestCompareRecyclesTheComparisonBefore(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	ct := tab.(*compareTab)
	s.CompareMethod = engine.GRPO
	var sides [][2]*agreement.Side
	for _, m := range []engine.Method{engine.Absolute, engine.Relative, engine.RLOO} {
		s.Options.Method = m
		s.Recompute()
		uitest.Refresh(tab, s)
		sides = append(sides, ct.sides)
	}
	if sides[0][1] != sides[2][1] {
		t.Fatal("B's side was not kept across the switches of A")
	}
	// The third A's side took the arrays of the first A's, given back
	// when the second was shown.
	if &sides[2][0].Values[0] != &sides[0][0].Values[0] {
		t.Error("the third comparison's side of A did not take the first's arrays")
	}
	// A job out: the comparison shown gives nothing back, and the next
	// side does not take the replaced one's arrays.
	replaced := ct.sides[0]
	s.Options.Method = engine.Absolute
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	job := ct.Job()
	ct.taken++ // another job, taken and not back
	tab.Update(job())
	ct.taken--
	s.Options.Method = engine.Relative
	s.Recompute()
	uitest.Refresh(tab, s)
	if &ct.sides[0].Values[0] == &replaced.Values[0] {
		t.Error("a comparison shown while a job was out gave its arrays back")
	}
}

// preparingTab returns the tab on the sample, A absolute and B grpo
// compared, and switchA, which switches A to a method as a recompute
// does with the tab shown: the comparison prepared beside it
// (PrepareJob) and made, the result shown; it returns the preparation.
func preparingTab(t *testing.T) (common.Tab, *session.Session, func(engine.Method) *prepared) {
	tab, s := uitest.SampleTab(t, New)
	ct := tab.(*compareTab)
	s.CompareMethod = engine.GRPO
	s.Options.Method = engine.Absolute
	s.Recompute()
	uitest.Refresh(tab, s)
	return tab, s, func(m engine.Method) *prepared {
		t.Helper()
		s.Options.Method = m
		run := ct.PrepareJob()
		if run == nil {
			t.Fatalf("a switch to %s with B's result held prepares nothing", m)
		}
		p := ct.prepared.Held()
		res := s.Evaluation.Prepare(s.Options, nil)    // a recompute's result: batches computed when asked
		run(res, func() *engine.Result { return nil }) // B's result held
		s.SetResult(res, nil)
		return p
	}
}

// TestCompareTakesThePreparedComparison: a switch of A with B's result
// held prepares the comparison beside the recompute (PrepareJob); the
// refresh on its result shows that comparison, made once, the same as a
// job makes; one prepared for another size is not shown, the job
// compares again, and the buffers lent come back either way.
func TestCompareTakesThePreparedComparison(t *testing.T) {
	tab, s, switchA := preparingTab(t)
	ct := tab.(*compareTab)
	p := switchA(engine.Relative)
	if ct.taken != 1 || ct.buf != nil {
		t.Fatalf("the preparation is not counted as a job out (taken %d) or the buffers not lent", ct.taken)
	}

	uitest.Refresh(tab, s)
	if ct.prepared.Held() != nil || ct.taken != 0 || ct.buf != p.buf {
		t.Errorf("the prepared comparison was not taken: prepared %v, taken %d, buffers back %v", ct.prepared.Held() != nil, ct.taken, ct.buf == p.buf)
	}
	if &ct.class[0] != &p.v.class[0] {
		t.Error("the refresh compared again rather than show the prepared comparison")
	}
	want := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if ct.cmp.Kendall != want.Kendall || ct.cmp.Spearman != want.Spearman || ct.cmp.TopShared != want.TopShared {
		t.Errorf("prepared: Kendall %v Spearman %v top %d, want %v %v %d", ct.cmp.Kendall, ct.cmp.Spearman, ct.cmp.TopShared, want.Kendall, want.Spearman, want.TopShared)
	}

	p = switchA(engine.RLOO)
	ct.SetSize(ct.width-10, ct.height) // the tab resized before the result lands
	uitest.Refresh(tab, s)
	if ct.prepared.Held() != nil || ct.taken != 0 || ct.buf == nil {
		t.Errorf("the stale preparation was not given up: prepared %v, taken %d, buffers %v", ct.prepared.Held() != nil, ct.taken, ct.buf != nil)
	}
	if len(ct.class) > 0 && &ct.class[0] == &p.v.class[0] {
		t.Error("a comparison prepared for another size was shown")
	}
	if g := newFrame(ct.width, ct.height, ct.ranges).Grid; ct.density.grid != g {
		t.Error("the points are not counted on the grid of the tab's size")
	}
	want = agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if ct.cmp.Kendall != want.Kendall || ct.cmp.Spearman != want.Spearman {
		t.Errorf("after the stale preparation: Kendall %v Spearman %v, want %v %v", ct.cmp.Kendall, ct.cmp.Spearman, want.Kendall, want.Spearman)
	}
}

// TestHiddenKeepsWhatItDraws: hidden (common.HiddenMsg), the tab lets go
// of its working buffers but keeps the sides of what it draws, draws the
// same, and compares again as it did, ranking no side it kept (a
// comparison prefetched hidden leaves its sides to the first switch); with
// a job out it keeps the buffers, which the job was lent.
func TestHiddenKeepsWhatItDraws(t *testing.T) {
	s := uitest.SyntheticSession(t, 2_000)
	tab := uitest.TabOn(s, New)
	tab.SetSize(120, 40)
	uitest.Refresh(tab, s)
	ct := tab.(*compareTab)
	if ct.buf == nil || ct.sides[0] == nil || ct.sides[1] == nil {
		t.Fatalf("after a comparison the tab keeps no buffers (%v) or sides (%v)", ct.buf != nil, ct.sides)
	}
	want := uitest.Plain(tab)
	sides := ct.sides
	tab.Update(common.HiddenMsg{})
	if ct.buf != nil || ct.sides != sides {
		t.Errorf("hidden, the tab keeps its buffers (%v) or lets go of its sides (%v, had %v)", ct.buf != nil, ct.sides, sides)
	}
	if got := uitest.Plain(tab); got != want {
		t.Errorf("hidden, the tab draws\n%s\nwant\n%s", got, want)
	}
	uitest.Refresh(tab, s)
	if got := uitest.Plain(tab); got != want {
		t.Errorf("compared again after it was hidden, the tab draws\n%s\nwant\n%s", got, want)
	}
	if ct.sides != sides {
		t.Errorf("compared again after it was hidden, the sides were ranked again (%v, had %v)", ct.sides, sides)
	}

	tab.Update(common.SessionChangedMsg{})
	job := tab.(common.Worker).Job() // taken by the root, not back yet
	tab.Update(common.HiddenMsg{})
	if ct.taken != 1 || ct.sides[0] == nil {
		t.Errorf("with a job out the tab let go of the sides it was lent (taken %d, sides %v)", ct.taken, ct.sides)
	}
	tab.Update(job())
	uitest.Jobs(tab) // the ranking
	if got := uitest.Plain(tab); got != want {
		t.Errorf("the job's comparison draws\n%s\nwant\n%s", got, want)
	}
}

// TestHiddenDropsAPreparedComparison: a switch's comparison prepared
// beside the recompute (PrepareJob) and done when the tab is left is
// dropped, with the buffers it was lent, rather than held, counted as a
// job out, until a visit.
func TestHiddenDropsAPreparedComparison(t *testing.T) {
	tab, s, switchA := preparingTab(t)
	ct := tab.(*compareTab)
	switchA(engine.Relative)
	res := s.Result
	tab.Update(common.HiddenMsg{})
	if ct.prepared.Held() != nil || ct.taken != 0 || ct.buf != nil {
		t.Errorf("hidden, the tab holds the prepared comparison (%v), a job out (%d) or buffers (%v)", ct.prepared.Held() != nil, ct.taken, ct.buf != nil)
	}
	uitest.Refresh(tab, s)
	if want := agreement.CompareRewards(res, s.CompareResult(), s.Batch); ct.cmp.Kendall != want.Kendall {
		t.Errorf("the visit after shows Kendall %v, want %v", ct.cmp.Kendall, want.Kendall)
	}
}

// ranked returns v ranked, as the tab's second job does.
func ranked(v compared, buf *agreement.Buffers) compared {
	v.setRanking(v.toRank.rank(buf, func() bool { return false }))
	return v
}

// TestComparePointsBeforeRanks: the first job shows the points, the
// signs and the counts at once, the rank statistics and the collapse
// saying they are being computed; its ranking, a second job, fills them
// in with what CompareRewards computes, the rest unchanged. Meanwhile
// the arrows, which step along the rank orders, select nothing and say
// why, and d steps through the disagreements.
func TestComparePointsBeforeRanks(t *testing.T) {
	s := uitest.SyntheticSession(t, 2_000)
	tab := uitest.TabOn(s, New)
	tab.SetSize(120, 40)
	if b, ok := s.CompareNeeded(s.Result.Options); ok {
		s.SetCompare(s.Evaluation.Compute(b))
	}
	ct := tab.(*compareTab)
	tab.Update(common.SessionChangedMsg{})
	tab.Update(ct.Job()())
	first := uitest.Plain(tab)
	if n := strings.Count(first, rankingText); n != 3 || !strings.Contains(first, "collapsed     "+countingText) {
		t.Errorf("shown first: %d rank statistics say %q (want 3), the collapse %q:\n%s", n, rankingText, countingText, first)
	}
	shownPosNeg, shownNegPos := ct.cmp.PosNeg, ct.cmp.NegPos
	selected := ct.selected
	_, cmd := tab.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if ct.selected != selected {
		t.Errorf("→ before the ranking moved the selection from %d to %d", selected, ct.selected)
	}
	if cmd == nil {
		t.Fatal("→ before the ranking does not say why it selects nothing")
	}
	if notice, ok := cmd().(common.NoticeMsg); !ok || notice.Text != notRanked || !notice.Holds() {
		t.Error("→ before the ranking does not say why it selects nothing, while it is true")
	}
	tab.Update(tea.KeyPressMsg{Code: 'd', Text: "d"})
	if len(ct.odd) > 1 && ct.selected != int(ct.odd[1]) {
		t.Errorf("d before the ranking selected %d, want the second disagreement %d", ct.selected, ct.odd[1])
	}
	tab.Update(tea.KeyPressMsg{Code: 'D', Text: "D"})
	if len(ct.odd) > 1 && ct.selected != int(ct.odd[0]) {
		t.Errorf("D before the ranking selected %d, want the first disagreement %d", ct.selected, ct.odd[0])
	}
	job := ct.Job()
	if job == nil {
		t.Fatal("no ranking job after the comparison shown first")
	}
	tab.Update(job())
	ranked := uitest.Plain(tab)
	if strings.Contains(ranked, rankingText) || strings.Contains(ranked, countingText) {
		t.Errorf("ranked, the tab still says it ranks or counts:\n%s", ranked)
	}
	want := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if ct.cmp.Kendall != want.Kendall || ct.cmp.Spearman != want.Spearman || ct.cmp.TopShared != want.TopShared || ct.cmp.PosNeg != want.PosNeg {
		t.Errorf("ranked: Kendall %v Spearman %v top %d, want %v %v %d", ct.cmp.Kendall, ct.cmp.Spearman, ct.cmp.TopShared, want.Kendall, want.Spearman, want.TopShared)
	}
	if shownPosNeg != want.PosNeg || shownNegPos != want.NegPos {
		t.Errorf("shown first: %d A+ B− and %d A− B+, want %d and %d", shownPosNeg, shownNegPos, want.PosNeg, want.NegPos)
	}
	// Only the panel's rank rows and collapse changed: the plot is the same.
	firstLines, rankedLines := strings.Split(first, "\n"), strings.Split(ranked, "\n")
	plotWidth := 120 - comparePanelWidth
	for i := range firstLines {
		if a, b := ansi.Cut(firstLines[i], 0, plotWidth), ansi.Cut(rankedLines[i], 0, plotWidth); a != b {
			t.Errorf("line %d of the plot changed with the ranking:\n%q\n%q", i, a, b)
		}
	}
	tab.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if ct.selected == selected {
		t.Error("→ once ranked did not move the selection")
	}
}

// TestPrepareAfterHidden: the tab let go of its buffers while hidden
// (a prefetch shown on the visit keeps none); the first switch of A on
// it still prepares its comparison beside the recompute, with new ones.
func TestPrepareAfterHidden(t *testing.T) {
	tab, s, switchA := preparingTab(t)
	ct := tab.(*compareTab)
	tab.Update(common.HiddenMsg{})
	if ct.buf != nil {
		t.Fatal("hidden, the tab kept its buffers")
	}
	p := switchA(engine.Relative) // fails when nothing is prepared
	uitest.Refresh(tab, s)
	if ct.prepared.Held() != nil || &ct.class[0] != &p.v.class[0] {
		t.Error("the comparison prepared after the tab was hidden was not the one shown")
	}
}

// TestClassifyMatchesOnePass: classify, in chunks on every core, gives
// each point the class of its signs, lists the disagreements A+ B− then
// A− B+ each in order, the ranges floats.Min and floats.Max give (NaN
// left out) and, with a grid, chart.Density's counts; on values with
// zeros, NaNs and infinities, over several chunks, and on all NaN.
func TestClassifyMatchesOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	pool := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)}
	n := 3*pointsChunk + 17
	a, b := make([]float64, n), make([]float64, n)
	draw := func() float64 {
		if rng.IntN(10) == 0 {
			return pool[rng.IntN(len(pool))]
		}
		return rng.NormFloat64()
	}
	for j := range a {
		a[j], b[j] = draw(), draw()
	}
	var v compared
	gotPosNeg, gotNegPos := v.classify(a, b, nil)
	var posNeg, negPos []int32
	for j, x := range a {
		want := classAgree
		switch y := b[j]; {
		case x > 0 && y < 0:
			want = classPosNeg
			posNeg = append(posNeg, int32(j))
		case x < 0 && y > 0:
			want = classNegPos
			negPos = append(negPos, int32(j))
		}
		if v.class[j] != want {
			t.Fatalf("point %d (%v, %v): class %d, want %d", j, x, b[j], v.class[j], want)
		}
	}
	if gotPosNeg != len(posNeg) || gotNegPos != len(negPos) {
		t.Errorf("%d A+ B− and %d A− B+, want %d and %d", gotPosNeg, gotNegPos, len(posNeg), len(negPos))
	}
	if !slices.Equal(v.odd, append(posNeg, negPos...)) {
		t.Error("the disagreements differ from those listed in one pass")
	}
	if want := [2][2]float64{{floats.Min(a), floats.Max(a)}, {floats.Min(b), floats.Max(b)}}; v.ranges != want {
		t.Errorf("ranges %v, want %v", v.ranges, want)
	}
	// With a grid, the points counted on it as chart.Density counts them.
	var counted compared
	counted.classify(a, b, benchGrid)
	g := benchGrid(counted.ranges)
	counts, worst := make([]int32, g.X.Cells*g.Y.Cells), make([]int32, g.X.Cells*g.Y.Cells)
	chart.Density(counts, worst, g, a, b, v.class, nil)
	if counted.density.grid != g || !slices.Equal(counted.density.counts, counts) || !slices.Equal(counted.density.worst, worst) {
		t.Error("the points counted while classified differ from chart.Density's counts")
	}
	for j := range a {
		a[j] = math.NaN()
	}
	v.classify(a, b, nil)
	if !math.IsNaN(v.ranges[0][0]) || !math.IsNaN(v.ranges[0][1]) {
		t.Errorf("all NaN: range %v, want NaN as floats.Min gives", v.ranges[0])
	}
}

// TestStaleRankingGivesUp: a ranking whose comparison was replaced (a
// switch of A while it ran) stops and its message changes nothing; the
// ranking of the comparison shown lands.
func TestStaleRankingGivesUp(t *testing.T) {
	tab, s, _ := preparingTab(t)
	ct := tab.(*compareTab)
	s.Options.Method = engine.Relative
	s.Recompute() // nothing prepared: compared, then ranked, in two jobs
	tab.Update(common.SessionChangedMsg{})
	tab.Update(ct.Job()()) // the comparison, shown
	ranking := ct.Job()
	s.Options.Method = engine.RLOO
	s.Recompute()
	tab.Update(common.SessionChangedMsg{}) // another comparison asked
	msg := ranking().(rankedMsg)
	if msg.r.sides[0] != nil || msg.r.cmp.ByA != nil {
		t.Error("a stale ranking went on to compare its sides")
	}
	tab.Update(msg)
	if ct.ranked {
		t.Error("a stale ranking's message marked the comparison shown ranked")
	}
	uitest.Jobs(tab)
	if want := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch); !ct.ranked || ct.cmp.Kendall != want.Kendall {
		t.Errorf("after the stale ranking: ranked %v, Kendall %v, want %v", ct.ranked, ct.cmp.Kendall, want.Kendall)
	}
}

// TestRankingStaleBetweenSteps: a ranking found stale once the sides are
// ranked stops there, before comparing them; one never stale completes.
func TestRankingStaleBetweenSteps(t *testing.T) {
	_, s := uitest.SampleTab(t, New)
	s.CompareMethod = engine.RLOO
	if b, ok := s.CompareNeeded(s.Result.Options); ok {
		s.SetCompare(s.Evaluation.Compute(b))
	}
	buf := new(agreement.Buffers)
	v := compare(s.Result, s.CompareResult(), s.Batch, engine.RLOO, known{}, buf, nil)
	asked := 0
	got := v.toRank.rank(buf, func() bool { asked++; return asked > 1 })
	if asked != 2 || got.cmp.ByA != nil || got.sides[0] != nil {
		t.Errorf("stale after ranking the sides: asked %d times (want 2), compared %v", asked, got.cmp.ByA != nil)
	}
	got = v.toRank.rank(buf, func() bool { return false })
	if want := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch); got.cmp.Kendall != want.Kendall || got.sides[0] == nil {
		t.Errorf("never stale: Kendall %v, want %v", got.cmp.Kendall, want.Kendall)
	}
}

// TestCompareSelectionAcrossSwitches: until a point is chosen, each
// comparison shown selects its own first disagreement (gdpo's, not the
// first method's kept); a point chosen with d stays selected across a
// switch of A while it is compared.
func TestCompareSelectionAcrossSwitches(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	ct := tab.(*compareTab)
	switchTo := func(m engine.Method) {
		t.Helper()
		s.Options.Method = m
		s.Recompute()
		uitest.Refresh(tab, s)
	}
	switchTo(engine.GDPO)
	if len(ct.odd) < 2 {
		t.Fatalf("gdpo against %s: %d disagreements, too few", s.CompareMethod, len(ct.odd))
	}
	if ct.selected != int(ct.odd[0]) {
		t.Errorf("gdpo: trajectory %d selected, want its first disagreement %d", ct.cmp.Index[ct.selected], ct.cmp.Index[ct.odd[0]])
	}
	tab.Update(uitest.KeyPress("d"))
	chosen := ct.cmp.Index[ct.selected]
	switchTo(engine.RLOO)
	if got := ct.cmp.Index[ct.selected]; got != chosen {
		t.Errorf("rloo: trajectory %d selected, want the one chosen, %d", got, chosen)
	}
}

// TestCompareDisagreementEnds: D at the first disagreement and d at the
// last keep the selection and say it is the first or the last; between,
// they step without a word.
func TestCompareDisagreementEnds(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	ct := tab.(*compareTab)
	n := len(ct.odd)
	if n < 2 || ct.selected != int(ct.odd[0]) {
		t.Fatalf("the sample's comparison: %d disagreements, %d selected, want at least 2, the first selected", n, ct.selected)
	}
	press := func(k string, want int32, notice string) {
		t.Helper()
		cmds := uitest.PressKeys(tab, k)
		if ct.selected != int(want) {
			t.Errorf("%s selected %d, want %d", k, ct.selected, want)
		}
		var got string
		if len(cmds) > 0 {
			if msg, ok := cmds[0]().(common.NoticeMsg); ok {
				got = msg.Text
			}
		}
		if got != notice {
			t.Errorf("%s at disagreement %d says %q, want %q", k, slices.Index(ct.odd, int32(ct.selected))+1, got, notice)
		}
	}
	press("D", ct.odd[0], fmt.Sprintf("this is the first of the %d disagreements", n))
	for j := 1; j < n; j++ {
		press("d", ct.odd[j], "")
	}
	press("d", ct.odd[n-1], fmt.Sprintf("this is the last of the %d disagreements", n))
	press("D", ct.odd[n-2], "")
}

// TestCompareLongIDsStayDistinct: the selected trajectory's id is shown
// whole over the panel's lines when it fits in them (an id of 68
// characters differing in its middle), and one too long for them is cut
// in its middle: 12 ids of 300 characters that differ at their end show
// as 12.
func TestCompareLongIDsStayDistinct(t *testing.T) {
	for _, c := range []struct {
		id    func(j int) string
		whole bool
	}{
		{func(j int) string { return fmt.Sprintf("%s-%02d", strings.Repeat("X", 300), j) }, false},
		{func(j int) string {
			return fmt.Sprintf("run-2026-11-27-experiment-very-long-identifier-s00-p%02d-c7-suffix-xyz", j)
		}, true},
	} {
		var b strings.Builder
		for j := range 12 {
			fmt.Fprintf(&b, `{"id":"%s","group":"g%d","metadata":{"a":%d,"b":%d}}`+"\n", c.id(j), j/4, j, j%3)
		}
		s := uitest.TextSession(t, b.String())
		tab := uitest.TabOn(s, New)
		tab.SetSize(125, 40)
		ct := tab.(*compareTab)
		shown := map[string]bool{}
		for j := range ct.cmp.N {
			ct.selected = j
			id := selectedID(uitest.Plain(tab))
			shown[id] = true
			if want := s.Trajectories.At(ct.cmp.Index[j]).ID; c.whole && id != want {
				t.Errorf("the panel shows the id %q, want %q whole", id, want)
			}
		}
		if len(shown) != 12 {
			t.Errorf("the 12 ids show as %d: %q", len(shown), slices.Collect(maps.Keys(shown)))
		}
	}
}

// selectedID returns the id the panel of view shows, its lines joined.
func selectedID(view string) string {
	id, k := "", -1 // k: the panel's first cell
	for _, l := range strings.Split(view, "\n") {
		switch {
		case k < 0:
			if b := strings.Index(l, "id            "); b >= 0 {
				k = ansi.StringWidth(l[:b])
				id = strings.Fields(l[b:])[1]
			}
		case strings.Contains(l, "reward A"):
			return id
		default:
			id += strings.TrimSpace(ansi.Cut(l, k, k+comparePanelWidth))
		}
	}
	return id
}

// TestCompareSaysWhyTheAgreementIsUndefined: where the rank agreement is
// undefined the panel says why, not NaN: no valid trajectory (and the
// title says there is nothing to plot), every reward 0 (groups of one,
// or of equal objectives), where the top 10%'s share, of tied rewards,
// says nothing either; the collapse line is whole at 80 cells.
func TestCompareSaysWhyTheAgreementIsUndefined(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"all invalid", `{"id":"a","group":"g0","metadata":{"b":1}}
{"id":"b","group":"g1","metadata":{"b":2}}
`, []string{"nothing to plot: no valid trajectory", "Spearman ρ    – no valid trajectory", "top 10% share – no valid trajectory", "collapsed     – no valid trajectory"}},
		{"singletons", `{"id":"a","group":"g0","metadata":{"a":1,"b":1}}
{"id":"b","group":"g1","metadata":{"a":2,"b":2}}
{"id":"c","group":"g2","metadata":{"a":3,"b":0}}
`, []string{"Spearman ρ    – every reward is 0", "Kendall τ-b   – every reward is 0", "– no group with", "distinct objectives"}},
		{"all equal", `{"id":"a","group":"g0","metadata":{"a":1,"b":1}}
{"id":"b","group":"g0","metadata":{"a":1,"b":1}}
`, []string{"Spearman ρ    – every reward is 0", "top 10% share – every reward is 0"}},
	} {
		tab := uitest.TabOn(uitest.TextSession(t, c.text), New)
		tab.SetSize(80, 30)
		v := uitest.Plain(tab)
		for _, want := range c.want {
			if !strings.Contains(v, want) {
				t.Errorf("%s: the tab does not say %q:\n%s", c.name, want, v)
			}
		}
		if strings.Contains(v, "NaN") || strings.Contains(v, "…") {
			t.Errorf("%s: the tab shows NaN or a cut line:\n%s", c.name, v)
		}
	}
}

func TestUndefinedWhy(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		want string
	}{
		{nil, nil, "no valid trajectory"},
		{[]float64{1}, []float64{2}, "one trajectory only"},
		{[]float64{0, 0}, []float64{0, 0}, "every reward is 0"},
		{[]float64{1, 1}, []float64{2, 2}, "A, B rewards all equal"},
		{[]float64{1, 1}, []float64{1, 2}, "every A reward equal"},
		{[]float64{1, 2}, []float64{0, 0}, "every B reward equal"},
	} {
		if got := undefinedWhy(agreement.Comparison{N: len(c.a), A: c.a, B: c.b}); got != c.want {
			t.Errorf("A %v, B %v: %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

// visitComputingB returns the tab on the sample, A absolute and B rloo,
// as a visit finds it: A's result computed, B's not yet held.
func visitComputingB(t *testing.T) (common.Tab, *session.Session, *compareTab) {
	tab, s := uitest.SampleTab(t, New)
	s.CompareMethod = engine.RLOO
	s.Options.Method = engine.Absolute
	s.Recompute()
	return tab, s, tab.(*compareTab)
}

// prepareBesideB runs what a recompute that computes B's result runs
// beside it (PrepareJob), asked by what the message names: B's result
// computed, A's the session's as it is. It returns the comparison
// prepared and B's result, not yet the session's.
func prepareBesideB(t *testing.T, ct *compareTab, s *session.Session, asked string) (*prepared, *engine.Result) {
	t.Helper()
	bOpts, need := s.CompareNeeded(s.Options)
	if !need {
		t.Fatal("B's result is held before it was computed")
	}
	run := ct.PrepareJob()
	if run == nil {
		t.Fatalf("%s prepares nothing", asked)
	}
	p := ct.prepared.Held()
	b := s.Evaluation.Compute(bOpts)
	run(s.Result, func() *engine.Result { return b })
	return p, b
}

// TestVisitPreparedBesideB: a recompute that computes B's result (a
// visit before B's result is held) prepares the comparison beside it
// (PrepareJob), A's side ranked while B's result is computed; the refresh
// on that result shows its points, and the ranking after, of B's side
// only, ranks as from scratch.
func TestVisitPreparedBesideB(t *testing.T) {
	tab, s, ct := visitComputingB(t)
	p, b := prepareBesideB(t, ct, s, "a recompute computing B's result")
	if p.b != b || p.v.toRank == nil || p.v.ranked {
		t.Fatalf("the comparison prepared beside B's result is not with it (%v), or ranked already (%v)", p.b == b, p.v.ranked)
	}
	sideA := p.v.known.sides[0]
	if sideA == nil || !sideA.Of(s.Result, s.Batch) {
		t.Fatal("A's side was not ranked beside B's result")
	}
	s.SetResult(s.Result, b)
	tab.Update(common.SessionChangedMsg{})
	tab.Update(ct.Job()())
	if ct.prepared.Held() != nil || ct.taken != 0 || &ct.class[0] != &p.v.class[0] {
		t.Errorf("the prepared comparison was not the one shown: prepared %v, taken %d", ct.prepared.Held() != nil, ct.taken)
	}
	uitest.Jobs(tab) // the ranking
	if ct.sides[0] != sideA {
		t.Error("the ranking ranked A's side again rather than take the one prepared")
	}
	want := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if !ct.ranked || ct.cmp.Kendall != want.Kendall || ct.cmp.Spearman != want.Spearman || ct.cmp.TopShared != want.TopShared {
		t.Errorf("Kendall %v Spearman %v top %d, want %v %v %d", ct.cmp.Kendall, ct.cmp.Spearman, ct.cmp.TopShared, want.Kendall, want.Spearman, want.TopShared)
	}
}

// TestChangeOfBKeepsASide: a change of B alone (A's result stays, its
// side held) prepares the comparison with A's side as it is rather than
// rank A's values again.
func TestChangeOfBKeepsASide(t *testing.T) {
	tab, s, _ := preparingTab(t)
	ct := tab.(*compareTab)
	sideA := ct.sides[0]
	if sideA == nil || !sideA.Of(s.Result, s.Batch) {
		t.Fatal("after a comparison the tab holds no side of A's result")
	}
	s.CompareMethod = engine.RLOO
	_, b := prepareBesideB(t, ct, s, "a change of B")
	s.SetResult(s.Result, b)
	uitest.Refresh(tab, s)
	if ct.sides[0] != sideA {
		t.Error("the comparison with the new B ranked A's side again")
	}
	want := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if ct.cmp.Kendall != want.Kendall || ct.cmp.Spearman != want.Spearman {
		t.Errorf("Kendall %v Spearman %v, want %v %v", ct.cmp.Kendall, ct.cmp.Spearman, want.Kendall, want.Spearman)
	}
}

// TestPreparedTakenWhileBIsComputed: a comparison prepared for a B that
// changed before its recompute landed (b pressed twice) is given up by
// the refresh on that result, which waits for the new B's result, so
// that the next recompute prepares its own.
func TestPreparedTakenWhileBIsComputed(t *testing.T) {
	tab, s, ct := visitComputingB(t)
	_, b := prepareBesideB(t, ct, s, "a recompute computing B's result")
	s.CompareMethod = engine.GRPO // changed while the recompute ran
	s.SetResult(s.Result, b)      // rloo's, not the session's B
	tab.Update(common.SessionChangedMsg{})
	if ct.prepared.Held() != nil || ct.taken != 0 {
		t.Errorf("the refresh waiting for B's result kept the stale preparation (%v) or counts it out (%d)", ct.prepared.Held() != nil, ct.taken)
	}
	if ct.PrepareJob() == nil {
		t.Error("the recompute of the new B prepares nothing")
	}
}

// TestQuickPressesOfB: b pressed twice before the root took the first
// (keys written at once) asks B two steps on, and B pressed after it one
// back: each step counts from the method last asked; and b is taken while
// the comparison is computed.
func TestQuickPressesOfB(t *testing.T) {
	tab, s, _ := preparingTab(t)
	methods := methodsB(s)
	i := slices.Index(methods, s.CompareMethod)
	asked := func(cmds []tea.Cmd) []engine.Method {
		var got []engine.Method
		for _, cmd := range cmds {
			if cmd != nil {
				if msg, ok := cmd().(common.CompareMethodMsg); ok {
					got = append(got, msg.Method)
				}
			}
		}
		return got
	}
	n := len(methods)
	got := asked(uitest.PressKeys(tab, "b", "b", "B"))
	want := []engine.Method{methods[(i+1)%n], methods[(i+2)%n], methods[(i+1)%n]}
	if !slices.Equal(got, want) {
		t.Errorf("b b B asked %v, want %v", got, want)
	}
	// While the comparison of the B asked is computed, b still steps on.
	s.CompareMethod = want[2]
	tab.Update(common.SessionChangedMsg{})
	if !tab.(*compareTab).computing {
		t.Fatal("the comparison is not being computed")
	}
	if got := asked(uitest.PressKeys(tab, "b")); !slices.Equal(got, []engine.Method{methods[(i+2)%n]}) {
		t.Errorf("b while computing asked %v, want %v", got, methods[(i+2)%n])
	}
}

// TestCompareReadsTheOpenedTrajectoryOffTheEventLoop: enter on a point
// reads its trajectory in a job (uitest.ReadsOffTheLoop).
func TestCompareReadsTheOpenedTrajectoryOffTheEventLoop(t *testing.T) {
	uitest.ReadsOffTheLoop(t, New, func(tab common.Tab) int { return tab.(*compareTab).read.Opened.I })
}
