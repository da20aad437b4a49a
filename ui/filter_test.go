package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// filterRecords is one step of three groups of two, objective a: group x
// (a 1, 1) and z (0, 0) have zero spread of a and are dropped, y (1, 0)
// is kept; b varies everywhere.
const filterRecords = `{"id":"x0","group":"x","batch":0,"metadata":{"a":1,"b":1}}
{"id":"x1","group":"x","batch":0,"metadata":{"a":1,"b":2}}
{"id":"y0","group":"y","batch":0,"metadata":{"a":1,"b":3}}
{"id":"y1","group":"y","batch":0,"metadata":{"a":0,"b":5}}
{"id":"z0","group":"z","batch":0,"metadata":{"a":0,"b":1}}
{"id":"z1","group":"z","batch":0,"metadata":{"a":0,"b":4}}
`

// filterModel is the dashboard on filterRecords with --filter-groups a,
// at 160x40.
func filterModel(t *testing.T) *Model {
	t.Helper()
	s := uitest.TextSession(t, filterRecords)
	if err := s.SetFilterGroups("a"); err != nil {
		t.Fatal(err)
	}
	return openModel(s, 160, 40)
}

// TestFilterToggle: with --filter-groups the dashboard opens on the kept
// batch, the dropped groups' trajectories left out (not valid, marked
// dropped, of no invalid cause; said dropped by the filter) and their
// rewards 0, the kept group's those of the
// batch without them; the status line says what was kept and dropped; f
// shows the batch without the filter, and f again with it.
func TestFilterToggle(t *testing.T) {
	m := filterModel(t)
	s := m.Session()
	want := []prompts.FilterStep{{Step: 0, Kept: 1, Dropped: 2, EffectiveBatch: 2, Trajectories: 6}}
	if !s.Filter.On || !slices.Equal(s.Filter.Steps, want) {
		t.Fatalf("filter on %v, steps %+v, want %+v", s.Filter.On, s.Filter.Steps, want)
	}
	if !slices.Equal(s.Evaluation.Valid, []bool{false, false, true, true, false, false}) ||
		!slices.Equal(s.Evaluation.Dropped, []bool{true, true, false, false, true, true}) || s.Evaluation.Causes[0] != "" ||
		s.NotValidBecause(0) != "dropped by the group filter (zero spread of a)" {
		t.Errorf("valid %v, dropped %v, causes %q, why %q", s.Evaluation.Valid, s.Evaluation.Dropped, s.Evaluation.Causes, s.NotValidBecause(0))
	}
	s.Result.Finish()
	// The kept group y alone: grpo on the score (a + b) / 2 (weights 1/2
	// each): scores 2 and 2.5, mean 2.25, sample std sqrt(0.125).
	r := 0.25 / (math.Sqrt(0.125) + s.Options.Epsilon)
	if got := s.Result.Rewards; got[0] != 0 || got[1] != 0 || math.Abs(got[2]+r) > 1e-12 || math.Abs(got[3]-r) > 1e-12 || got[4] != 0 || got[5] != 0 {
		t.Errorf("rewards %v, want 0 0 %v %v 0 0", got, -r, r)
	}
	if v := screen(m); !strings.Contains(v, "filter-groups a on: 1 kept, 2 dropped groups; this step 1 kept, 2 dropped, 2 of 6 trajectories") {
		t.Errorf("the status line does not say what the filter kept:\n%s", v)
	}
	if v := screen(m); !strings.Contains(v, "f filter") {
		t.Errorf("the footer does not offer f:\n%s", v)
	}
	press(m, "f")
	if s.Filter.On || !slices.Equal(s.Evaluation.Valid, []bool{true, true, true, true, true, true}) || s.Evaluation != s.Unfiltered() {
		t.Errorf("f did not turn the filter off: on %v, valid %v", s.Filter.On, s.Evaluation.Valid)
	}
	if v := screen(m); !strings.Contains(v, "filter-groups a off") {
		t.Errorf("the status line does not say the filter is off:\n%s", v)
	}
	press(m, "f")
	if !s.Filter.On || s.Evaluation.Valid[0] {
		t.Errorf("f again did not turn the filter on")
	}
}

// TestFilterToggleIsAsynchronous: f's evaluation is made by a command;
// until it lands the batch shown stays, and a command made stale by a
// second f is not shown when it lands after it.
func TestFilterToggleIsAsynchronous(t *testing.T) {
	m := filterModel(t)
	s := m.Session()
	_, off := m.Update(uitest.KeyPress("f"))
	if off == nil || !s.Filter.On {
		t.Fatalf("f: command %v, filter on %v: want a command, the filter still on", off != nil, s.Filter.On)
	}
	_, on := m.Update(uitest.KeyPress("f"))
	m.Update(off())
	if !s.Filter.On || !slices.Equal(s.Filter.Steps, []prompts.FilterStep{{Step: 0, Kept: 1, Dropped: 2, EffectiveBatch: 2, Trajectories: 6}}) {
		t.Errorf("the stale toggle (off) was shown: on %v", s.Filter.On)
	}
	before := s.Evaluation
	m.Update(on())
	if !s.Filter.On || s.Evaluation == before {
		t.Errorf("the toggle asked last (on) was not shown")
	}
}

// TestFilterNeedsItsObjective: without --filter-groups, f does nothing
// but say why, and is not offered; an objective that is none is an error
// with the nearest.
func TestFilterNeedsItsObjective(t *testing.T) {
	s := uitest.TextSession(t, filterRecords)
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m.Settle()
	m.Update(uitest.KeyPress("f"))
	if v := screen(m); s.Filter.On || strings.Contains(v, "f filter") || !strings.Contains(v, "f: the group filter needs --filter-groups OBJECTIVE") {
		t.Errorf("f without --filter-groups: on %v, or offered, or not said why:\n%s", s.Filter.On, v)
	}
	err := uitest.TextSession(t, filterRecords).SetFilterGroups("aa")
	if err == nil || err.Error() != `--filter-groups "aa": not an objective; did you mean a? (objectives: a, b)` {
		t.Errorf("error %v", err)
	}
}

// followedFilterModel returns the dashboard following a run read from
// text (run.jsonl), the group filter on objective a, 160x40, settled.
func followedFilterModel(t *testing.T, text string) (*Model, *session.Session) {
	t.Helper()
	s := uitest.FollowedTextSession(t, text)
	if err := s.SetFilterGroups("a"); err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m.Settle()
	return m, s
}

// followLines hands m the trajectories of text as a followed update, and
// settles it.
func followLines(t *testing.T, m *Model, text string) {
	t.Helper()
	more, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(liveMsg{loaders.Update{Trajectories: more.Trajectories}, true})
	m.Settle()
}

// TestFilterFollows: following with the filter on, each update's batches
// are filtered as they come: the kept marks of the run so far.
func TestFilterFollows(t *testing.T) {
	text := func(step, from int) string {
		var b strings.Builder
		for i := from; i < from+6; i++ {
			// Groups of two: g0 varies (kept), g1 and g2 constant (dropped).
			g := (i - from) / 2
			a := 0
			if g == 0 && i%2 == 0 {
				a = 1
			}
			fmt.Fprintf(&b, `{"id":"t%d","group":"g%d","batch":%d,"metadata":{"a":%d,"b":%d}}`+"\n", i, g, step, a, i)
		}
		return b.String()
	}
	m, s := followedFilterModel(t, text(0, 0))
	followLines(t, m, text(1, 6))
	want := []prompts.FilterStep{{Step: 0, Kept: 1, Dropped: 2, EffectiveBatch: 2, Trajectories: 6}, {Step: 1, Kept: 1, Dropped: 2, EffectiveBatch: 2, Trajectories: 6}}
	if !s.Filter.On || !slices.Equal(s.Filter.Steps, want) || s.Evaluation.N() != 12 || s.Unfiltered().N() != 12 {
		t.Fatalf("followed with the filter: on %v, steps %+v, %d trajectories", s.Filter.On, s.Filter.Steps, s.Evaluation.N())
	}
	valid := []bool{true, true, false, false, false, false}
	if !slices.Equal(s.Evaluation.Valid, append(slices.Clone(valid), valid...)) {
		t.Errorf("valid %v", s.Evaluation.Valid)
	}
	if got := s.Result.Ranking.Batches; len(got) != 2 || s.Result.Evaluation != s.Evaluation {
		t.Errorf("the result shown is not of the filtered evaluation")
	}
}

// TestFilterFollowedUpdateComputesNoWrittenScores: a followed update with
// the filter on starts no pass over the whole run for what compute writes
// of the dropped trajectories while no tab shown shows it (the first tab;
// the Groups tab with no group open); the Trajectories tab, whose batch
// holds dropped trajectories, starts it. Every followed update started it.
func TestFilterFollowedUpdateComputesNoWrittenScores(t *testing.T) {
	text := func(step, from int) string {
		var b strings.Builder
		for i := from; i < from+4; i++ {
			// Groups of two: g0 varies (kept), g1 constant (dropped).
			a := 0
			if i-from == 0 {
				a = 1
			}
			fmt.Fprintf(&b, `{"id":"t%d","group":"g%d","batch":%d,"metadata":{"a":%d,"b":%d}}`+"\n", i, (i-from)/2, step, a, i)
		}
		return b.String()
	}
	m, s := followedFilterModel(t, text(0, 0))
	for _, tab := range []string{"1", "2"} {
		press(m, tab)
		followLines(t, m, text(len(s.Result.Ranking.Batches), 4*len(s.Result.Ranking.Batches)))
		if !s.Filter.On || !s.WrittenPending() {
			t.Errorf("tab %s: a followed update computed what compute writes of the dropped trajectories, none on screen (filter on %v)", tab, s.Filter.On)
		}
	}
	press(m, "5")
	m.Settle()
	if s.WrittenPending() {
		t.Error("the Trajectories tab, its batch holding dropped trajectories, did not compute what compute writes of them")
	}
}

// TestFilterWithEditedConstraints: a constraint typed in the weights
// editor with the filter on is evaluated on the batch without the filter,
// then filtered again: the dropped groups stay out, both evaluations hold
// the constraint (b >= 2 holds for b = 2, 3, 5, 4, not for the two 1s),
// and f keeps it. A change that started with the filter off and lands
// after f turned it on is filtered too.
func TestFilterWithEditedConstraints(t *testing.T) {
	feasible := func(ev interface{ Feasible(int) bool }) []bool {
		var out []bool
		for i := range 6 {
			out = append(out, ev.Feasible(i))
		}
		return out
	}
	wantFeasible := []bool{false, true, true, true, false, true}
	m := filterModel(t)
	s := m.Session()
	press(m, "w", "c")
	typeText(m, "b >= 2")
	press(m, "enter", "esc")
	if !slices.Equal(s.Config.Constraints, []string{"b >= 2"}) {
		t.Fatalf("constraints %q", s.Config.Constraints)
	}
	if !s.Filter.On || !slices.Equal(s.Evaluation.Valid, []bool{false, false, true, true, false, false}) || !s.Evaluation.HasConstraints() {
		t.Errorf("filter on %v, valid %v, constraints %v", s.Filter.On, s.Evaluation.Valid, s.Evaluation.HasConstraints())
	}
	if u := s.Unfiltered(); slices.Contains(u.Valid, false) || !u.HasConstraints() || !slices.Equal(feasible(u), wantFeasible) {
		t.Errorf("the evaluation without the filter: valid %v, feasible %v", u.Valid, feasible(u))
	}
	if s.Result.Evaluation != s.Evaluation {
		t.Errorf("the result shown is not of the filtered evaluation")
	}
	press(m, "f")
	if s.Filter.On || !s.Evaluation.HasConstraints() || !slices.Equal(feasible(s.Evaluation), wantFeasible) {
		t.Errorf("f: filter on %v, constraints %v, feasible %v", s.Filter.On, s.Evaluation.HasConstraints(), feasible(s.Evaluation))
	}
	j, err := s.NewStructureJob([]string{"b >= 3"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	press(m, "f")
	j.Run(context.Background())
	if err := s.ApplyStructure(j); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Evaluation.Valid, []bool{false, false, true, true, false, false}) || s.Unfiltered().Constraints[0].Expr != "b >= 3" || s.Evaluation.Constraints[0].Expr != "b >= 3" {
		t.Errorf("a change landing after f: valid %v", s.Evaluation.Valid)
	}
}

// TestGoldenFilter keeps the screens of the sample with --filter-groups
// accuracy at each of goldenSizes: the Rewards and Groups tabs of the kept
// batch (step 0: 11 groups kept, 5 dropped, their trajectories invalid),
// the status line's counts first, f in the footer; and the Rewards tab
// after f, without the filter. Regenerate with go test ./ui -run
// TestGoldenFilter -update.
func TestGoldenFilter(t *testing.T) {
	for _, v := range []struct {
		name string
		keys []string
	}{
		{"on-Rewards", []string{"1"}},
		{"on-Groups", []string{"2"}},
		{"off-Rewards", []string{"1", "f"}},
		// p03 is dropped: its score, rank and crowding as compute
		// --filter-groups writes them, in the table and opened.
		{"on-Trajectories", []string{"5", "/", "p", "0", "3", "enter"}},
		{"on-Trajectory", []string{"5", "/", "p", "0", "3", "enter", "enter"}},
	} {
		t.Run(v.name, func(t *testing.T) {
			for _, size := range goldenSizes {
				t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
					s := uitest.SampleSession(t)
					if err := s.SetFilterGroups("accuracy"); err != nil {
						t.Fatal(err)
					}
					m := NewModel(s, true)
					m.Init()
					m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					m.Settle()
					press(m, v.keys...)
					golden.RequireEqual(t, screen(m))
				})
			}
		})
	}
}

// TestFilterTogglePressedThrice: with f pressed three times before any
// command lands (on, so off, on, off), the first two commands' results
// are dropped, the first's though it asked for the state of the third,
// and only the third's is shown.
func TestFilterTogglePressedThrice(t *testing.T) {
	m := filterModel(t)
	s := m.Session()
	var cmds []tea.Cmd
	for range 3 {
		_, cmd := m.Update(uitest.KeyPress("f"))
		cmds = append(cmds, cmd)
	}
	shown := s.Evaluation
	for _, cmd := range cmds[:2] {
		m.Update(cmd())
		if s.Evaluation != shown || m.filter.next == nil {
			t.Fatal("a command of an earlier f was shown while the last one computes")
		}
	}
	m.Update(cmds[2]())
	if s.Evaluation == shown || s.Filter.On || m.filter.next != nil {
		t.Errorf("the last f's command (off) was not shown (filter on %v)", s.Filter.On)
	}
}

// TestFilterToggleRestartsOnANewBase: a toggle's command made from the
// evaluation without the filter that a change of constraints replaced
// while it ran is not shown: it is made again from the new one, so the
// constraint holds with the filter off.
func TestFilterToggleRestartsOnANewBase(t *testing.T) {
	m := filterModel(t)
	s := m.Session()
	_, toggle := m.Update(uitest.KeyPress("f")) // off, its command run below
	for _, k := range []string{"w", "c", "b", "space", ">", "space", "1"} {
		m.Update(uitest.KeyPress(k))
	}
	_, evaluate := m.Update(uitest.KeyPress("enter"))
	runCmds(m, evaluate)
	if !s.Evaluation.HasConstraints() || m.filter.next == nil {
		t.Fatalf("the constraint applied %v, the toggle pending %v", s.Evaluation.HasConstraints(), m.filter.next != nil)
	}
	_, again := m.Update(toggle())
	if again == nil {
		t.Fatal("the toggle's command, made before the constraint, was not made again")
	}
	m.Update(again())
	if !s.Evaluation.HasConstraints() || s.Filter.On || m.filter.next != nil {
		t.Errorf("after the toggle made again: constraints %v, filter on %v, pending %v", s.Evaluation.HasConstraints(), s.Filter.On, m.filter.next != nil)
	}
}

// TestFilterGroupViewScoresAsCompute: with the filter on, a dropped
// group's view shows each completion's score and Pareto rank as e (and
// compute --filter-groups) writes them, those of the run without the
// filter, not the NaN and "-" of a trajectory invalid in the batch shown;
// its rewards are the 0 written.
func TestFilterGroupViewScoresAsCompute(t *testing.T) {
	t.Chdir(t.TempDir())
	s := uitest.SampleSession(t)
	if err := s.SetFilterGroups("accuracy"); err != nil {
		t.Fatal(err)
	}
	m := openModel(s, 160, 30)
	press(m, "e")
	data, err := os.ReadFile("rewardlens-step0-pareto.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	type record struct {
		ID     string  `json:"id"`
		Group  string  `json:"group"`
		Score  float64 `json:"score"`
		Reward float64 `json:"reward"`
		Rank   int     `json:"pareto_rank"`
		Kept   bool    `json:"kept"`
	}
	written := map[string]record{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		written[r.ID] = r
	}
	press(m, "2", "down", "down", "down", "enter") // p03, dropped
	v := screen(m)
	lines := strings.Split(v, "\n")
	header := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "#  ") })
	if header < 0 || !strings.Contains(v, "prompt  p03") {
		t.Fatalf("p03's view is not open:\n%s", v)
	}
	// The cell of a right-aligned column ends where its title does.
	titles := []rune(lines[header])
	cellOf := func(row []rune, title string) string {
		end := strings.Index(string(titles), " "+title+" ")
		end = len([]rune(string(titles)[:end])) + 1 + len(title)
		fields := strings.Fields(string(row[:end]))
		return fields[len(fields)-1]
	}
	rows := 0
	for _, l := range lines[header+1:] {
		f := strings.Fields(l)
		if len(f) < 3 || !strings.HasPrefix(f[2], "s00-p03-") {
			continue
		}
		rows++
		r, row := written[f[2]], []rune(l)
		if r.Kept || r.Group != "p03" {
			t.Fatalf("%s is written kept or not of p03: %+v", f[2], r)
		}
		score, err := strconv.ParseFloat(cellOf(row, "score"), 64)
		if err != nil || !(math.Abs(score-r.Score) <= 5e-5) { // NaN fails
			t.Errorf("%s: score %q, written %v", f[2], cellOf(row, "score"), r.Score)
		}
		if rank := cellOf(row, "rank"); rank != strconv.Itoa(r.Rank) {
			t.Errorf("%s: rank %q, written %d", f[2], rank, r.Rank)
		}
		if reward := cellOf(row, "pareto"); reward != "0" || r.Reward != 0 {
			t.Errorf("%s: reward %q, written %v", f[2], reward, r.Reward)
		}
	}
	if rows != 8 {
		t.Errorf("%d of p03's 8 completions found:\n%s", rows, v)
	}
}

// cellsOf returns the cells of the right-aligned columns titles in the
// row of id of the table whose header starts with head: such a cell ends
// where its title does.
func cellsOf(t *testing.T, m *Model, head, id string, titles ...string) []string {
	t.Helper()
	lines := strings.Split(screen(m), "\n")
	header := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, head) })
	row := slices.IndexFunc(lines, func(l string) bool { return slices.Contains(strings.Fields(l), id) })
	if header < 0 || row < 0 {
		t.Fatalf("no row of %s:\n%s", id, screen(m))
	}
	cells := []string{}
	for _, title := range titles {
		end := strings.Index(lines[header], " "+title+" ")
		end = len([]rune(lines[header][:end])) + 1 + len(title)
		fields := strings.Fields(string([]rune(lines[row])[:end]))
		cells = append(cells, fields[len(fields)-1])
	}
	return cells
}

// TestFilterWrittenScoresOffTheEventLoop: the score and rank of a dropped
// group's completions as compute writes them (the run without the filter)
// are computed by a command, not on the event loop: after a new result
// (m) the open dropped group marks them pending, a command's message
// made for a result replaced since is not kept (another command starts
// for the result shown), and the last one's shows them.
func TestFilterWrittenScoresOffTheEventLoop(t *testing.T) {
	m := filterModel(t)
	s := m.Session()
	press(m, "2", "enter") // group x, dropped: x0's score is (1 + 1) / 2, its rank 1
	written := []string{"1.000", "1"}
	if cells := cellsOf(t, m, "#  ", "x0", "score", "rank"); !slices.Equal(cells, written) {
		t.Fatalf("x0's written score and rank once computed: %q, want %q", cells, written)
	}
	_, cmd := m.Update(uitest.KeyPress("m"))
	first := runCmdsHolding[writtenMsg](m, cmd)
	if len(first) != 1 || !s.WrittenPending() {
		t.Fatalf("the new result started %d commands of what compute writes, pending %v", len(first), s.WrittenPending())
	}
	if cells := cellsOf(t, m, "#  ", "x0", "score", "rank"); !slices.Equal(cells, []string{common.PendingValue, common.PendingValue}) {
		t.Errorf("x0's score and rank while computed: %q, want them marked pending", cells)
	}
	_, cmd = m.Update(uitest.KeyPress("m"))
	if held := runCmdsHolding[writtenMsg](m, cmd); len(held) != 0 {
		t.Errorf("a second command started while the first is under way")
	}
	_, cmd = m.Update(first[0])
	if !s.WrittenPending() || cmd == nil {
		t.Fatal("the message of a result replaced since was kept, or no command started for the result shown")
	}
	last := runCmdsHolding[writtenMsg](m, cmd)
	if len(last) != 1 {
		t.Fatalf("%d commands for the result shown", len(last))
	}
	m.Update(last[0])
	if cells := cellsOf(t, m, "#  ", "x0", "score", "rank"); s.WrittenPending() || !slices.Equal(cells, written) {
		t.Errorf("x0's written score and rank once its command landed: %q, want %q", cells, written)
	}
}

// TestFilterTrajectoriesShowWrittenScores: the Trajectories tab and its
// opened trajectory show a dropped trajectory's score, rank and crowding
// as compute --filter-groups writes them (x0's of the run without the
// filter), marked pending while a new result's are computed, never the
// NaN and - of a trajectory invalid in the result shown.
func TestFilterTrajectoriesShowWrittenScores(t *testing.T) {
	m := filterModel(t)
	press(m, "5")
	written := []string{"1.000", "1", "inf"}
	if cells := cellsOf(t, m, "id  ", "x0", "score", "rank", "crowding"); !slices.Equal(cells, written) {
		t.Errorf("x0's score, rank and crowding: %q, want %q", cells, written)
	}
	_, cmd := m.Update(uitest.KeyPress("m"))
	held := runCmdsHolding[writtenMsg](m, cmd)
	if cells := cellsOf(t, m, "id  ", "x0", "score", "rank", "crowding"); !slices.Equal(cells, []string{common.PendingValue, common.PendingValue, common.PendingValue}) {
		t.Errorf("x0's score, rank and crowding while computed: %q, want them marked pending", cells)
	}
	if cells := cellsOf(t, m, "id  ", "y0", "score", "rank"); slices.Contains(cells, common.PendingValue) {
		t.Errorf("y0, kept, is marked pending: %q", cells)
	}
	for _, k := range []string{"/", "x", "0", "enter", "enter"} { // not settled: the command stays held
		m.Update(uitest.KeyPress(k))
	}
	if v := screen(m); !strings.Contains(v, "score        "+common.PendingValue+" (computing it without the group filter)") {
		t.Errorf("x0 opened while its score is computed does not say so:\n%s", v)
	}
	for _, msg := range held {
		m.Update(msg)
	}
	v := screen(m)
	for _, want := range []string{"score        1 (without the group filter, as compute writes it)", "pareto_rank  1", "crowding     inf"} {
		if !strings.Contains(v, want) {
			t.Errorf("x0 opened does not show %q once computed:\n%s", want, v)
		}
	}
}

// TestFilterTrajectoriesSortedWhilePending: the Trajectories table sorted
// by score while what compute writes of the dropped trajectories is
// computed (their scores sorted as NaN) no longer says it is sorted by
// score once their scores land, until sorted again.
func TestFilterTrajectoriesSortedWhilePending(t *testing.T) {
	m := filterModel(t)
	press(m, "5")
	sortedByScore := func() bool { return strings.Contains(screen(m), "sorted by score") }
	for range 12 {
		if sortedByScore() {
			break
		}
		press(m, "s")
	}
	if !sortedByScore() {
		t.Fatalf("s does not sort by score:\n%s", screen(m))
	}
	_, cmd := m.Update(uitest.KeyPress("f"))
	runCmds(m, cmd) // off
	_, cmd = m.Update(uitest.KeyPress("f"))
	held := runCmdsHolding[writtenMsg](m, cmd) // on, x's and z's scores pending
	m.Update(uitest.KeyPress("S"))
	if !sortedByScore() {
		t.Fatalf("S does not sort by score while pending:\n%s", screen(m))
	}
	for _, msg := range held {
		m.Update(msg)
	}
	if sortedByScore() {
		t.Errorf("the rows sorted while the dropped scores were pending are said sorted by score once they landed:\n%s", screen(m))
	}
	press(m, "S")
	if !sortedByScore() {
		t.Errorf("S does not sort by score once they landed:\n%s", screen(m))
	}
}

// TestFilterDroppedNotInvalid: the groups the filter drops on purpose are
// not invalid data: the health's invalid_fraction and the status line's
// mostly-invalid warning leave them out, as stats --health
// --filter-groups does (it keeps them valid), and a batch invalid for
// another cause says the dropped apart. The dashboard raised an ALERT,
// "4 of 6 trajectories invalid (67%), mostly dropped by the group filter".
func TestFilterDroppedNotInvalid(t *testing.T) {
	m := filterModel(t)
	settle(m)
	s := m.Session()
	for _, f := range s.Findings() {
		if f.Check == health.CheckInvalidFraction {
			t.Errorf("the dropped groups graded invalid: %+v", f)
		}
	}
	if v := screen(m); strings.Contains(v, "trajectories invalid") {
		t.Errorf("the screen grades the dropped groups invalid:\n%s", v)
	}
	// y1 lacks a: its group, of one valid trajectory, is kept; the
	// step's one invalid trajectory of 6 is graded, the dropped said apart.
	records := strings.Replace(filterRecords, `{"id":"y1","group":"y","batch":0,"metadata":{"a":0,"b":5}}`, `{"id":"y1","group":"y","batch":0,"metadata":{"b":5}}`, 1)
	s = uitest.TextSession(t, records)
	if err := s.SetFilterGroups("a"); err != nil {
		t.Fatal(err)
	}
	m = openModel(s, 160, 40)
	settle(m)
	var got []string
	for _, f := range s.Findings() {
		if f.Check == health.CheckInvalidFraction {
			got = append(got, f.Message)
		}
	}
	if want := "1 of 6 trajectories invalid (17%), mostly a: missing (1); 4 dropped by the group filter"; !slices.Equal(got, []string{want}) {
		t.Errorf("invalid_fraction %q, want %q", got, want)
	}
}

// droppedAndInvalid is step's batch of 19 trajectories: groups w and x of
// eight each with zero spread of a (dropped, 16), and group z of one
// valid trajectory (kept) and two without a (invalid, 2).
func droppedAndInvalid(step int) string {
	var b strings.Builder
	for _, g := range []string{"w", "x"} {
		for k := range 8 {
			fmt.Fprintf(&b, `{"id":"s%d-%s%d","group":"%s","batch":%d,"metadata":{"a":1,"b":%d}}`+"\n", step, g, k, g, step, k)
		}
	}
	fmt.Fprintf(&b, `{"id":"s%d-z0","group":"z","batch":%d,"metadata":{"a":0,"b":1}}`+"\n", step, step)
	for k := 1; k <= 2; k++ {
		fmt.Fprintf(&b, `{"id":"s%d-z%d","group":"z","batch":%d,"metadata":{"b":%d}}`+"\n", step, k, step, k)
	}
	return b.String()
}

// TestFilterDroppedCountedApart: the rows the filter drops are not
// counted invalid by the header, the status line or the health, which
// say the dropped apart, at first and after a followed update that
// extends the filtered evaluation (WithoutSince) with a new step and
// brings a dropped group of the old one back (x: a row of another a).
// The header said "! 18 invalid", the status line "18 invalid
// trajectories in the run".
func TestFilterDroppedCountedApart(t *testing.T) {
	m, s := followedFilterModel(t, droppedAndInvalid(0))
	invalidFindings := func() []string {
		var got []string
		for _, f := range s.Findings() {
			if f.Check == health.CheckInvalidFraction {
				got = append(got, fmt.Sprintf("step %d: %s", f.Step, f.Message))
			}
		}
		return got
	}
	// check checks the header of the batch shown, the status line's
	// warnings and the findings.
	check := func(when, header, summary string, findings []string) {
		t.Helper()
		if first, _, _ := strings.Cut(screen(m), "\n"); !strings.Contains(first, header) {
			t.Errorf("%s: the header %q does not say %q", when, first, header)
		}
		if w := m.status.Warnings(); !slices.Contains(w, summary) {
			t.Errorf("%s: the status line's warnings %q lack %q", when, w, summary)
		}
		if got := invalidFindings(); !slices.Equal(got, findings) {
			t.Errorf("%s: invalid_fraction %q, want %q", when, got, findings)
		}
	}
	step1 := "2 of 19 trajectories invalid (11%), mostly a: missing (2); 16 dropped by the group filter"
	check("at first", "1 valid ! 2 invalid · 16 dropped",
		"2 invalid trajectories in the run (reward = their group's mean): a: missing ×2",
		[]string{"step 0: " + step1})

	prev := s.Evaluation
	followLines(t, m, droppedAndInvalid(1)+`{"id":"s0-x8","group":"x","batch":0,"metadata":{"a":0,"b":9}}`+"\n")
	if _, ok := s.Evaluation.RowsSince(prev); !ok {
		t.Fatal("the filtered evaluation does not extend the one before: the update was not filtered as one (WithoutSince)")
	}
	summary := "4 invalid trajectories in the run (reward = their group's mean): a: missing ×4"
	// Step 0: x kept, 9 valid of it and z0; 2 of 20 invalid is 10%, not
	// above the threshold.
	findings := []string{"step 1: " + step1}
	headers := map[int64]string{0: "10 valid ! 2 invalid · 8 dropped", 1: "1 valid ! 2 invalid · 16 dropped"}
	for _, key := range []string{"[", "]"} {
		press(m, key)
		step := s.CurrentBatch().Step
		if want := map[string]int64{"[": 0, "]": 1}[key]; step != want {
			t.Fatalf("%s shows step %d, want %d", key, step, want)
		}
		check(fmt.Sprintf("step %d after the update", step), headers[step], summary, findings)
	}
}

// TestGoldenFilterHeaderWidths: with the group filter on, the header of
// a batch with invalid and dropped trajectories at 60 to 200 columns,
// with a short and a long source: the dropped said apart from the invalid
// ("! 1 invalid · 5 dropped"), gone before the valid count where the line
// is narrowest.
func TestGoldenFilterHeaderWidths(t *testing.T) {
	s := uitest.SampleSession(t)
	if err := s.SetFilterGroups("accuracy"); err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 24})
	m.Settle()
	// The first batch with both.
	for st := s.BatchStats(); st.Invalid == 0 || st.Dropped == 0; st = s.BatchStats() {
		if s.Batch == len(s.Result.Ranking.Batches)-1 {
			t.Fatal("no batch of the sample has invalid and dropped trajectories")
		}
		press(m, "]")
	}
	var sb strings.Builder
	for _, source := range []string{"sample", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"} {
		s.Source = source
		for _, width := range []int{60, 80, 100, 120, 140, 200} {
			m.Update(tea.WindowSizeMsg{Width: width, Height: 24})
			m.Settle()
			head, _, _ := strings.Cut(screen(m), "\n")
			fmt.Fprintf(&sb, "%d columns, source %s:\n%s\n\n", width, source, head)
		}
	}
	golden.RequireEqual(t, sb.String())
}
