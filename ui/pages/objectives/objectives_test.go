package objectives

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestObjectivesTableScrollsSideways: at 75 columns the statistics do not
// all fit; the table says so, and right brings max on screen with the
// objective's name still there.
func TestObjectivesTableScrollsSideways(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	tab.SetSize(75, 24)
	header := func() string { return strings.Split(uitest.Plain(tab), "\n")[1] }
	if v := uitest.Plain(tab); strings.Contains(header(), " max") || !strings.Contains(v, "1 column →") {
		t.Fatalf("at 75 columns the table shows max, or does not say a column is off screen:\n%s", v)
	}
	uitest.PressKeys(tab, "right")
	if h := header(); !strings.HasPrefix(h, "objective") || !strings.HasSuffix(strings.TrimRight(h, " "), "max") {
		t.Errorf("right does not bring max on screen beside the names: %q", h)
	}
	uitest.PressKeys(tab, "left")
	if h := header(); !strings.Contains(h, "goal") {
		t.Errorf("left does not scroll back: %q", h)
	}
}

// TestCorrelationGridAligned names the objectives with wide characters and
// an escape sequence: the correlation grid's rows stay aligned.
func TestCorrelationGridAligned(t *testing.T) {
	ts := make([]scoring.Trajectory, 16)
	for i := range ts {
		ts[i] = scoring.Trajectory{
			ID:       strings.Repeat("x", i),
			Metadata: map[string]any{"a": float64(i % 4), "b": float64(i % 3)},
		}
	}
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{
		{Name: "精度", Expr: "metadata.a"},
		{Name: "evil\x1b]0;pwned\x07", Expr: "metadata.b"},
	}}
	s, err := session.Open("runs.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	grid := correlationView(common.NewStyles(true, true), s.BatchStats().Objectives, s.BatchStats().Correlation, 80)
	rows := strings.Split(grid, "\n")[1:4] // the names, then one row per objective
	for _, r := range rows {
		if w := ansi.StringWidth(r); w != ansi.StringWidth(rows[0]) {
			t.Errorf("correlation grid rows are not aligned:\n%s", grid)
			break
		}
	}
}

// sessionOf returns a session on one batch of 16 trajectories whose
// objectives, named names, read the metadata fields of the same names,
// valued by value(i, k).
func sessionOf(t *testing.T, names []string, value func(i, k int) float64) *session.Session {
	t.Helper()
	ts := make([]scoring.Trajectory, 16)
	var objs []setup.ObjectiveConfig
	for k, n := range names {
		objs = append(objs, setup.ObjectiveConfig{Name: n, Expr: fmt.Sprintf("metadata[%q]", n)})
		for i := range ts {
			if ts[i].Metadata == nil {
				ts[i] = scoring.Trajectory{ID: fmt.Sprint(i), Group: fmt.Sprint(i % 2), Metadata: map[string]any{}}
			}
			ts[i].Metadata[n] = value(i, k)
		}
	}
	s, err := session.Open("runs.jsonl", setup.Config{Objectives: objs}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCorrelationScaleAndNaN: the colour scale's row says what it is;
// "NaN: a constant objective" comes with a NaN only.
func TestCorrelationScaleAndNaN(t *testing.T) {
	colour := common.NewStyles(true, false)
	s := uitest.SampleSession(t)
	grid := ansi.Strip(correlationView(colour, s.BatchStats().Objectives, s.BatchStats().Correlation, 80))
	if !regexp.MustCompile(`(?m)^scale +-1\.00 +-0\.50 +\+0\.00 +\+0\.50 +\+1\.00 *$`).MatchString(grid) {
		t.Errorf("the colour scale's row is not labelled:\n%s", grid)
	}
	if strings.Contains(grid, "NaN") {
		t.Errorf("no objective of the sample is constant, yet:\n%s", grid)
	}
	constant := sessionOf(t, []string{"a", "b"}, func(i, k int) float64 { return float64(k * i) })
	grid = ansi.Strip(correlationView(colour, constant.BatchStats().Objectives, constant.BatchStats().Correlation, 80))
	if !strings.Contains(grid, "NaN: a constant objective") || !strings.Contains(grid, "NaN") {
		t.Errorf("a is constant, and the grid does not say what its NaN means:\n%s", grid)
	}
}

// TestCorrelationHeadersFitTheWidth: at 200 columns the names of 11
// characters head the grid whole; at 80 they are cut, the distributions
// keeping 40 columns.
func TestCorrelationHeadersFitTheWidth(t *testing.T) {
	names := []string{"correctness", "helpfulness", "conciseness"}
	s := sessionOf(t, names, func(i, k int) float64 { return float64((i * (k + 1)) % 5) })
	tab := uitest.TabOn(s, New)
	for _, tc := range []struct {
		width int
		want  string
	}{{200, "correctness helpfulness conciseness"}, {80, "correc… helpfu… concis…"}} {
		tab.SetSize(tc.width, 40)
		v := uitest.Plain(tab)
		var header string
		for _, line := range strings.Split(v, "\n") {
			if strings.Contains(line, "Pearson correlation") {
				header = "next"
			} else if header == "next" {
				header = line
				break
			}
		}
		if got := strings.Join(strings.Fields(header), " "); !strings.HasPrefix(got, tc.want) {
			t.Errorf("at %d columns the grid's header reads %q, want %q:\n%s", tc.width, got, tc.want, v)
		}
	}
}

// TestObjectivesHistogramsHaveAxes: at every size each objective's
// histogram has its value axis labelled, ascending numbers around its
// values.
func TestObjectivesHistogramsHaveAxes(t *testing.T) {
	s := uitest.SampleSession(t)
	objs := s.BatchStats().Objectives
	number := regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		tab := uitest.TabOn(s, New)
		tab.SetSize(size[0], size[1]-4) // the header, the tab bar, the status and the footer
		lines := strings.Split(uitest.Plain(tab), "\n")
		var axes [][]float64
		top, col := -1, 0
		for i, line := range lines {
			if j := strings.Index(line, "Distributions"); j >= 0 {
				top, col = i, ansi.StringWidth(line[:j])
			}
		}
		if top < 0 {
			t.Fatalf("at %dx%d: no distributions:\n%s", size[0], size[1], strings.Join(lines, "\n"))
		}
		for _, line := range lines[top+1:] {
			right := strings.Fields(ansi.Cut(line, col, size[0]))
			if len(right) < 2 {
				continue
			}
			var ticks []float64
			for _, f := range right {
				if !number.MatchString(f) {
					ticks = nil
					break
				}
				v, _ := strconv.ParseFloat(f, 64)
				ticks = append(ticks, v)
			}
			if ticks != nil && slices.IsSorted(ticks) {
				axes = append(axes, ticks)
			}
		}
		if len(axes) != len(objs) {
			t.Fatalf("at %dx%d: %d labelled value axes for %d objectives:\n%s", size[0], size[1], len(axes), len(objs), strings.Join(lines, "\n"))
		}
		// The labels are nice multiples among the bins' edges: they span
		// the median and half the range at least, not every edge.
		for k, o := range objs {
			if ticks := axes[k]; ticks[0] > o.Median || ticks[len(ticks)-1] < o.Median || ticks[len(ticks)-1]-ticks[0] < (o.Max-o.Min)/2 {
				t.Errorf("at %dx%d: %s's axis %v for values %v..%v, median %v", size[0], size[1], o.Name, ticks, o.Min, o.Max, o.Median)
			}
		}
	}
}

// TestDistributionsFitTheirHeight: with more objectives than the height
// gives three rows each, the histograms shrink to two rows (a caption with
// the range, a sparkline) and, below that, those that fit are drawn and
// the rest counted; the panel never runs past its height, and every
// objective is drawn or counted.
func TestDistributionsFitTheirHeight(t *testing.T) {
	const m = 11
	ts := make([]scoring.Trajectory, 64)
	var objs []setup.ObjectiveConfig
	for k := range m {
		objs = append(objs, setup.ObjectiveConfig{Name: fmt.Sprintf("obj_%02d", k), Expr: fmt.Sprintf("metadata.o%d", k)})
	}
	for i := range ts {
		md := map[string]any{}
		for k := range m {
			md[fmt.Sprintf("o%d", k)] = float64((i*(k+3))%17) / 16
		}
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: strconv.Itoa(i / 8), Metadata: md}
	}
	s, err := session.Open("runs.jsonl", setup.Config{Objectives: objs}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The whole tab fits its height too: the correlation grid is cut
	// with a line saying so.
	tab := uitest.TabOn(s, New)
	for _, height := range []int{20, 26, 40} {
		tab.SetSize(120, height)
		if view := uitest.Plain(tab); strings.Count(view, "\n")+1 > height || height < 30 && !regexp.MustCompile(`… \d+ more lines? \(a taller terminal shows them\)`).MatchString(view) {
			t.Errorf("at 120x%d the tab does not fit, or does not say what it cut:\n%s", height, view)
		}
	}
	st := s.BatchStats()
	values := make([][]float64, m)
	for k := range values {
		for i := range ts {
			values[k] = append(values[k], s.Evaluation.Values[i*m+k])
		}
	}
	more := regexp.MustCompile(`… (\d+) more objectives? \(a taller terminal shows all 11\)`)
	for _, height := range []int{3, 4, 5, 6, 7, 8, 12, 22, 23, 33, 40, 80} {
		view := ansi.Strip(distributionsView(common.NewStyles(true, false), st.Objectives, values, 60, height))
		lines := strings.Split(view, "\n")
		if len(lines) > height {
			t.Errorf("height %d: %d lines:\n%s", height, len(lines), view)
		}
		drawn := 0
		for k := range m {
			if strings.Contains(view, fmt.Sprintf("obj_%02d ", k)) {
				drawn++
			}
		}
		left := 0
		if g := more.FindStringSubmatch(view); g != nil {
			left, _ = strconv.Atoi(g[1])
		}
		if drawn+left != m || (height >= 2*m+1) != (left == 0) {
			t.Errorf("height %d: %d drawn and %d said to be left, of %d:\n%s", height, drawn, left, m, view)
		}
		if height < 3*m+1 && height >= 2*m+1 && !strings.Contains(view, "obj_00  0.000 to 1.000") && !strings.Contains(view, "obj_00  0.00 to 1.00") && !strings.Contains(view, "obj_00  0.0 to 1.0") {
			t.Errorf("height %d: the two-row caption does not name the range:\n%s", height, view)
		}
	}
}

// TestObjectivesKeepValuesOnSwitch: a switch of method keeps the values
// and their distributions drawn (the objectives do not change), while
// another batch, size or background draws them again; each time the tab
// shows what a tab new to the session shows.
func TestObjectivesKeepValuesOnSwitch(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	o := tab.(*objectivesTab)
	same := func(what string, width, height int) {
		t.Helper()
		fresh := uitest.TabOn(s, New)
		fresh.SetSize(width, height)
		if got, want := uitest.Plain(tab), uitest.Plain(fresh); got != want {
			t.Errorf("%s: the tab shows\n%s\nwant\n%s", what, got, want)
		}
	}
	gen, dist := o.valuesGen, o.distOf
	s.Options.Method = engine.GRPO
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	uitest.Jobs(tab) // the statistics: the session computed only the counts
	if o.valuesGen != gen || o.distOf != dist {
		t.Errorf("a switch of method gathered the values again (%v) or drew the distributions again (%v)", o.valuesGen != gen, o.distOf != dist)
	}
	same("after a switch", 120, 40)
	if len(s.Result.Ranking.Batches) < 2 {
		t.Fatal("the sample has one batch")
	}
	s.SetBatch(1)
	tab.Update(common.SessionChangedMsg{})
	uitest.Jobs(tab)
	if o.valuesGen == gen {
		t.Error("another batch kept the values")
	}
	same("another batch", 120, 40)
	dist = o.distOf
	tab.SetSize(100, 30)
	if o.distOf == dist {
		t.Error("another size kept the distributions drawn")
	}
	same("another size", 100, 30)
}

// TestObjectivesMissingLeftOut: under nansum a None value (null), which
// counts 0 in the score, is left out of the objective's statistics and
// distribution and counted in a missing column, not summarised as a 0.
// acc is 1, null, 3, null: count 2, missing 2, mean 2, std 1, min 1, p25
// 1.5, median 2, p75 2.5, max 3 (with the nulls as 0s it read count 4,
// mean 1, min 0); fmt is 1, 1, 0, 0, so over the rows with both values
// their correlation is -1 (-1/sqrt(6) with the 0s).
func TestObjectivesMissingLeftOut(t *testing.T) {
	acc := []any{1.0, nil, 3.0, nil}
	ts := make([]scoring.Trajectory, len(acc))
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: "p", Metadata: map[string]any{"acc": acc[i], "fmt": float64(1 - i/2)}}
	}
	nanSum := true
	cfg := setup.Config{NanSum: &nanSum, Objectives: []setup.ObjectiveConfig{{Name: "acc", Expr: "metadata.acc"}, {Name: "fmt", Expr: "metadata.fmt"}}}
	s, err := session.Open("runs.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	tab.SetSize(200, 40)
	view := uitest.Plain(tab)
	lines := strings.Split(view, "\n")
	if got := strings.Fields(lines[1]); !slices.Equal(got[:5], []string{"objective", "goal", "weight", "count", "missing"}) {
		t.Fatalf("header %q, want a missing column after count:\n%s", lines[1], view)
	}
	want := "acc max 0.50 2 2 2.000 1.000 1.000 1.500 2.000 2.500 3.000"
	if got := strings.Join(strings.Fields(lines[2]), " "); !strings.HasPrefix(got, want) {
		t.Errorf("acc's row reads %q, want %q:\n%s", got, want, view)
	}
	if got := tab.(*objectivesTab).values[0]; !slices.Equal(got, []float64{1, 3}) {
		t.Errorf("acc's distribution draws %v, want [1 3]", got)
	}
	if !regexp.MustCompile(`(?m)^acc +\+1\.00 +-1\.00 `).MatchString(view) {
		t.Errorf("the correlation of acc and fmt is not -1 over the rows with both:\n%s", view)
	}
	// Without nansum a null makes the trajectory invalid: nothing is
	// missing, and there is no such column.
	plain := uitest.SampleTab
	tab, _ = plain(t, New)
	tab.SetSize(200, 40)
	if v := uitest.Plain(tab); strings.Contains(strings.Split(v, "\n")[1], "missing") {
		t.Errorf("a missing column without nansum:\n%s", v)
	}
}

// TestObjectivesWeightAsTyped: a weight of 0.333 reads 0.333 in the
// table, as in the weight editor, not the 0.33 it is not.
func TestObjectivesWeightAsTyped(t *testing.T) {
	third, rest := 0.333, 0.667
	ts := make([]scoring.Trajectory, 4)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: "p", Metadata: map[string]any{"acc": float64(i), "fmt": float64(i % 2)}}
	}
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{
		{Name: "acc", Expr: "metadata.acc", Weight: &third},
		{Name: "fmt", Expr: "metadata.fmt", Weight: &rest},
	}}
	s, err := session.Open("runs.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	tab.SetSize(200, 40)
	lines := strings.Split(uitest.Plain(tab), "\n")
	for k, want := range []string{"acc max 0.333 ", "fmt max 0.667 "} {
		if got := strings.Join(strings.Fields(lines[2+k]), " "); !strings.HasPrefix(got, want) {
			t.Errorf("row %d reads %q, want it to start %q", k, got, want)
		}
	}
}

// TestObjectivesStatisticsShowTheSpread: each objective's statistics are
// in one format chosen from its row: values near 1e7 spread over 5000
// read distinct without an exponent, values 0.5000x distinct with the
// digits their spread needs, integers as integers, micro values in one
// exponent form; the std at its row's precision.
func TestObjectivesStatisticsShowTheSpread(t *testing.T) {
	ts := make([]scoring.Trajectory, 11)
	for i := range ts {
		x := float64(i) / 10
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: "p", Metadata: map[string]any{
			"big": 1e7 + 5000*x + 0.25, "tiny": 0.5 + 0.0003*x, "len": 100.0, "neg": -1e-5 * (1 - x*0.99)}}
	}
	var objectives []setup.ObjectiveConfig
	for _, name := range []string{"big", "tiny", "len", "neg"} {
		objectives = append(objectives, setup.ObjectiveConfig{Name: name, Expr: "metadata." + name})
	}
	s, err := session.Open("runs.jsonl", setup.Config{Objectives: objectives}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	tab.SetSize(200, 40)
	view := uitest.Plain(tab)
	rows := map[string]string{}
	for _, l := range strings.Split(view, "\n")[2:6] {
		f := strings.Fields(l)
		rows[f[0]] = strings.Join(f[4:], " ") // mean std min p25 median p75 max
	}
	for name, want := range map[string]string{
		"big":  "10002500.2 1581.1 10000000.2 10001250.2 10002500.2 10003750.2 10005000.2",
		"tiny": "0.500150 0.000095 0.500000 0.500075 0.500150 0.500225 0.500300",
		"len":  "100 0 100 100 100 100 100",
		"neg":  "-5.050e-06 3.131e-06 -1.000e-05 -7.525e-06 -5.050e-06 -2.575e-06 -1.000e-07",
	} {
		if rows[name] != want {
			t.Errorf("%s's statistics read %q, want %q:\n%s", name, rows[name], want, view)
		}
	}
}

// TestHistogramCaptionNeverCutsANumber: a caption too wide says its
// numbers shorter, then cuts the name, never a number ("peak 41…" of
// 4133).
func TestHistogramCaptionNeverCutsANumber(t *testing.T) {
	tails := []string{"  bins of 0.05, peak 4133", "  bin 0.05, peak 4133"}
	for _, c := range []struct {
		width int
		want  string
	}{
		{40, "accuracy  bins of 0.05, peak 4133"},
		{31, "accuracy  bin 0.05, peak 4133"},
		{27, "accur…  bin 0.05, peak 4133"},
	} {
		if got := fitCaption("accuracy", c.width, tails...); got != c.want {
			t.Errorf("at %d cells: %q, want %q", c.width, got, c.want)
		}
	}
}

// TestObjectivesNoValidValueShowsDash: a batch without a valid
// trajectory has no statistics: each reads "–", as the Rewards summary
// shows them, not NaN; the count reads 0.
func TestObjectivesNoValidValueShowsDash(t *testing.T) {
	ts := make([]scoring.Trajectory, 4)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: "q0", Metadata: map[string]any{"acc": nil, "len": float64(100 + i)}}
	}
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "acc", Expr: "metadata.acc"}, {Name: "len", Expr: "metadata.len"}}}
	s, err := session.Open("halfbad.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	for _, size := range [][2]int{{100, 30}, {200, 40}} {
		tab.SetSize(size[0], size[1])
		view := uitest.Plain(tab)
		lines := strings.Split(view, "\n")
		for _, row := range lines[2:4] {
			fields := strings.Fields(row)
			if len(fields) < 11 || fields[3] != "0" || slices.ContainsFunc(fields[4:11], func(f string) bool { return f != "–" }) {
				t.Errorf("%dx%d: a row of no valid value reads %q, want a count of 0 and – for each statistic:\n%s", size[0], size[1], row, view)
			}
		}
	}
}
