package groups

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/table"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/session"
)

// groupView is one group's completions, ranked by reward, under the
// group's prompt (groupPrompts).
type groupView struct {
	summary diagnose.GroupSummary
	// promptText is the group's prompt, distinct what the group column
	// shows of it (groupLabels): what tells it apart from the batch's
	// other prompts, shown instead when the prompt does not fit.
	promptText, distinct string
	// key is the group's key, or its rows, where its prompt does not
	// tell it from another group's (groupsTab.shownKey), "" elsewhere:
	// the summary line shows it.
	key string
	// members are the completions in table order: sorted by the sort
	// key sortKey (sortKeys; A's reward at first), descending or not;
	// of the run as read reloads times again (Session.Reloads).
	members []int
	reloads int
	// selectedAt is the completion under the cursor (noteSelected),
	// found again when follow mode read files again.
	selectedAt trajectory.Selection
	sortKey    int
	descending bool
	// sortedBy names the key the rows were last sorted by: a change of
	// method keeps the rows' order, which then may be only its.
	sortedBy string
	table    table.Table
	// prompt is promptText (or distinct) wrapped to the width, at most
	// maxPromptLines.
	prompt        []string
	width, height int
	// completionLines caches each completion's text on one line
	// (common.OneLine), a lean trajectory's read again from its file off
	// the event loop: its first maxSharedRows members' when the group
	// opens (startRead), the others' once their rows are on screen
	// (readShown).
	completionLines map[int]string
	// sharedStart is what the completions read when the group opened
	// start with (common.SharedAffixes): the response column cuts it
	// first, so that the ends that tell them apart (answers) show.
	sharedStart string
	// opens numbers the openings of a group, so that a read of a group
	// left for another since is dropped; requested holds the completions
	// a read under way reads (their rows say "reading…"), pendingRead is
	// the last read until the root takes it (groupsTab.Job).
	opens       uint64
	requested   map[int]bool
	pendingRead func() tea.Msg
}

// completionsReadMsg is what a read of opening opened of a group, of the
// run as read reloads times, found: each completion's line and, for the
// first read (first), the start they share.
type completionsReadMsg struct {
	opened      uint64
	reloads     int
	first       bool
	lines       map[int]string
	sharedStart string
}

// readingText stands for a completion while the read of the group's
// first completions is under way.
const readingText = "reading…"

// maxSharedRows is how many of a group's completions are read when it
// opens, for the start they share: a larger group's others are read as
// their rows are drawn.
const maxSharedRows = 256

// barWidth is the width of the signed reward bar: half for negative
// rewards, left of the axis, half for positive ones.
const barWidth = 17

// maxFeasibleWidth holds "✗ " and a violation (common.FeasibleMark).
const maxFeasibleWidth = 12

// maxResponseWidth caps the response column, the last one: it takes what
// the others leave.
const maxResponseWidth = 120

// open shows group g, whose prompt is prompt and distinct what tells it
// apart, and key its key where the prompt does not tell it from another
// group ("" elsewhere), ranking its members by A's reward descending; with keepOrder, a
// group already open with the same members, no file read again since (the
// same indices may then be other trajectories), keeps its rows' order, so that
// a change of method does not move the completion being looked at, and
// one whose members changed keeps the cursor on that completion, found
// where it is now when follow mode read files again.
func (v *groupView) open(c *common.Common, g *diagnose.GroupSummary, prompt, distinct, key string, keepOrder bool) {
	s := c.Session
	same := v.reloads == s.Reloads && v.summary.Key == g.Key && slices.Equal(v.summary.Members, g.Members)
	at := v.selectedAt.Follow(s, v.selected(), v.reloads, s.Reloads)
	v.summary, v.promptText, v.distinct, v.key = *g, prompt, distinct, key
	if !same {
		v.completionLines, v.sharedStart = map[int]string{}, ""
		v.opens++
		v.requested = map[int]bool{}
		v.startRead(c.Session, v.summary.Members[:min(len(v.summary.Members), maxSharedRows)], true)
	}
	if keepOrder && same && len(v.members) == len(g.Members) {
		v.table.SetRows(len(v.members))
		v.layout(c)
		return
	}
	if !keepOrder {
		v.sortKey, v.descending = 0, true
	}
	v.members, v.reloads = slices.Clone(g.Members), s.Reloads
	v.sort(c)
	v.table.SetRows(len(v.members))
	if keepOrder {
		v.table.SetCursor(max(slices.Index(v.members, at), 0))
	}
	v.layout(c)
}

// noteSelected notes the completion under the cursor, for open to find
// it after follow mode read files again; not while the members are of
// the run before (their indices are no longer the session's).
func (v *groupView) noteSelected(s *session.Session) {
	v.selectedAt.Note(s, v.selected(), v.reloads)
}

// groupSortKey is a number of the group view's rows to sort them by.
type groupSortKey struct {
	title string
	value func(i int) float64
}

// sortKeys are the numbers s cycles through: A's reward, B's (when
// shown), the score, the rank and the objectives.
func (v *groupView) sortKeys(c *common.Common) []groupSortKey {
	s := c.Session
	res := s.Result
	keys := []groupSortKey{{textsafe.Line(string(res.Options.Method)), res.ShownReward}}
	if s.ShowsRewardB() && !s.RewardBPending() {
		keys = append(keys, groupSortKey{textsafe.Line(string(s.CompareMethod)), func(i int) float64 {
			r, _ := s.RewardB(i)
			return r
		}})
	}
	keys = append(keys,
		groupSortKey{"score", func(i int) float64 { score, _, _ := s.WrittenScoreRank(i); return score }},
		groupSortKey{"rank", func(i int) float64 {
			if _, rank, ok := s.WrittenScoreRank(i); ok {
				return float64(rank)
			}
			return math.NaN() // pending: last, as NaN sorts
		}})
	for k, o := range res.Objectives {
		// A value the trajectory has none of sorts last, as NaN does.
		keys = append(keys, groupSortKey{common.ObjectiveName(o.Name), func(i int) float64 {
			if common.AbsentValue(res.Evaluation, i, k) != "" {
				return math.NaN()
			}
			return res.Evaluation.Values[i*res.Evaluation.M+k]
		}})
	}
	return keys
}

// sort sorts the members by the sort key; an invalid completion (its
// reward is the group's mean) after the valid ones of the same value;
// then input order. NaN sorts last either way.
func (v *groupView) sort(c *common.Common) {
	keys := v.sortKeys(c)
	v.sortKey = min(v.sortKey, len(keys)-1)
	slices.SortStableFunc(v.members, v.order(c, keys[v.sortKey]))
	v.sortedBy = keys[v.sortKey].title
}

// order compares two members by key, as sort orders them.
func (v *groupView) order(c *common.Common, key groupSortKey) func(a, b int) int {
	valid := c.Session.Result.Evaluation.Valid
	return func(a, b int) int {
		x, y := key.value(a), key.value(b)
		if nx, ny := math.IsNaN(x), math.IsNaN(y); nx || ny {
			return cmp.Compare(boolInt(nx), boolInt(ny))
		}
		order := cmp.Compare(x, y)
		if v.descending {
			order = -order
		}
		return cmp.Or(order, cmp.Compare(boolInt(valid[b]), boolInt(valid[a])))
	}
}

// resort handles s (next) and S (reverse): it sorts the rows again, the
// cursor staying on its completion.
func (v *groupView) resort(c *common.Common, next bool) {
	if next {
		v.sortKey = (v.sortKey + 1) % len(v.sortKeys(c))
	} else {
		v.descending = !v.descending
	}
	at := v.selected()
	v.sort(c)
	v.table.SetCursor(max(slices.Index(v.members, at), 0))
	v.layout(c)
}

// sortPart says how the rows are ordered: "sorted by pareto ▼", or, when
// a change of method kept an order its key no longer gives,
// "order of grpo ▼ (s sorts)", "order kept from grpo ▼ (s sorts)" when
// no column is grpo's any more.
func (v *groupView) sortPart(c *common.Common) string {
	st := c.Styles
	by := v.sortedBy + common.SortArrow(v.descending)
	keys := v.sortKeys(c)
	if v.sortKey < len(keys) && keys[v.sortKey].title == v.sortedBy &&
		slices.IsSortedFunc(v.members, v.order(c, keys[v.sortKey])) {
		return st.Muted.Render("sorted by ") + by
	}
	if !slices.ContainsFunc(keys, func(k groupSortKey) bool { return k.title == v.sortedBy }) {
		return st.Muted.Render("order kept from ") + by + st.Muted.Render(" (s sorts)")
	}
	return st.Muted.Render("order of ") + by + st.Muted.Render(" (s sorts)")
}

func (v *groupView) setSize(c *common.Common, width, height int) {
	v.width, v.height = width, height
	if v.laidOut(c.Session) {
		v.layout(c)
	}
}

// groupTitle names what the group view shows above its completions,
// under cfg: the prompt, where what it shows is one (the text of the
// layout's prompt field, or of a plain record's group, which is its
// prompt); else the field the records are grouped by, which the group's
// key is a value of (open-instruct's prompt_idx, its slot in the step's
// batch: open-instruct's traces hold the prompt's tokens, no text), or
// "group" when they are grouped by an expression.
func groupTitle(cfg setup.Config) string {
	switch {
	case cfg.PromptField != "" || cfg.GroupBy == "":
		return "prompt"
	case fieldName.MatchString(cfg.GroupBy) && len(cfg.GroupBy) <= maxGroupTitle:
		return cfg.GroupBy
	}
	return "group"
}

// fieldName matches a bare field name, as an expression reads it.
var fieldName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// maxGroupTitle caps the field name groupTitle gives: its label takes
// the width of the lines under it.
const maxGroupTitle = 16

// titleGap separates the group view's title from the text after it.
const titleGap = "  "

// absentGroupText stands for the key of the group of the trajectories
// without one (the absent group "", no --group-by), which would show as
// nothing.
const absentGroupText = "none: the batch's trajectories without a group, compared as one group"

// emptyValueText stands for the key of the group whose --group-by value
// is empty: a group like any other, of the empty value.
const emptyValueText = `"": the group of the empty value, compared as one group`

// maxPromptLines is how many lines of the body the prompt may take.
func (v *groupView) maxPromptLines() int { return max(v.height/3, 2) }

// tableTop is the body line where the table starts.
func (v *groupView) tableTop() int { return len(v.prompt) + 1 }

// layout wraps the prompt (or, when it does not fit, what tells it apart)
// and sizes the table's columns.
func (v *groupView) layout(c *common.Common) {
	title := groupTitle(c.Session.Config) + titleGap
	// The key "" is the trajectories' without a group, unless a --group-by
	// expression gave it: then it is the empty value's group.
	empty := v.summary.Key == "" && v.promptText == ""
	absent := empty && c.Session.Config.GroupBy == ""
	if absent {
		title = "group" + titleGap
	}
	label := c.Styles.Muted.Render(title)
	indent := strings.Repeat(" ", len(title))
	wrap := func(text string) []string {
		// A chat template ends the prompt with a line break (after
		// "assistant"), which would take a line of its own.
		text = strings.TrimRight(text, " \t\r\n")
		return strings.Split(lipgloss.Wrap(textsafe.Text(text), max(v.width-len(title), 1), ""), "\n")
	}
	lines := wrap(v.promptText)
	limit := v.maxPromptLines()
	if len(lines) > limit && v.distinct != v.promptText {
		// A long prompt's start is what every prompt of the batch starts
		// with (a system prompt): its end tells the group apart. The
		// completion's view shows it whole.
		lines = wrap(v.distinct)
	}
	switch {
	case absent:
		lines = []string{c.Styles.Muted.Render(ansi.Truncate(absentGroupText, max(v.width-len(title), 1), "…"))}
	case empty:
		lines = []string{c.Styles.Muted.Render(ansi.Truncate(emptyValueText, max(v.width-len(title), 1), "…"))}
	}
	if len(lines) > limit {
		lines = lines[:limit]
		lines[limit-1] = ansi.Truncate(strings.TrimRight(lines[limit-1], " ")+" …", v.width-len(title), "…")
	}
	for j := range lines {
		if j == 0 {
			lines[j] = label + lines[j]
		} else {
			lines[j] = indent + lines[j]
		}
	}
	if note := c.Session.Config.GroupKeyNote; note != "" && v.promptText == v.summary.Key {
		// The key alone (a slot's number) would read as a prompt's id.
		noted := lines[0] + c.Styles.Muted.Render(titleGap+"("+note+")")
		if ansi.StringWidth(noted) <= v.width {
			lines[0] = noted
		} else {
			lines = append(lines, indent+c.Styles.Muted.Render(ansi.Truncate(note, max(v.width-len(indent), 1), "…")))
		}
	}
	v.prompt = lines
	v.table.SetSize(v.width, max(v.height-v.tableTop(), 2))
	// The frozen columns: the number (and the invalid's mark), the id,
	// and A's reward with its bar, which without its number and title
	// would be a bar of nothing.
	frozen := 4
	if v.marksInvalid(c.Session.Result) {
		frozen++
	}
	v.table.SetColumns(v.columns(c), frozen)
}

// marksInvalid reports whether a member is invalid: a column before the
// ids marks it "✗".
func (v *groupView) marksInvalid(res *engine.Result) bool {
	return slices.ContainsFunc(v.members, func(i int) bool { return !res.Evaluation.Valid[i] })
}

// columns returns the completions' table columns.
func (v *groupView) columns(c *common.Common) []table.Column {
	s := c.Session
	res := s.Result
	n := len(v.members)
	at := func(j int) int { return v.members[j] }
	// As shown: a group of zero spread has rewards 0, and no bar.
	reward := func(j int) float64 { return res.ShownReward(at(j)) }
	scale := 0.0 // the bar's full length
	for _, i := range v.members {
		if r := math.Abs(res.ShownReward(i)); !math.IsInf(r, 0) {
			scale = max(scale, r)
		}
	}
	id := func(j int) string { return textsafe.Line(s.Trajectories.At(at(j)).ID) }
	cols := []table.Column{table.IntColumn("#", n, func(j int) int { return j + 1 })}
	if v.marksInvalid(res) { // a column of its own: the ids keep the prefix they share
		cols = append(cols, table.Column{Width: 1, Cell: func(j int) string {
			if !res.Evaluation.Valid[at(j)] {
				return "✗"
			}
			return ""
		}})
	}
	// The rewards are named by their method: A's, the current one, and
	// B's, the Compare tab's, when it is another (until B's result is
	// computed, no column), both in one format.
	titles, rewards := []string{textsafe.Line(string(res.Options.Method))}, []func(j int) float64{reward}
	if s.ShowsRewardB() && !s.RewardBPending() {
		titles = append(titles, textsafe.Line(string(s.CompareMethod)))
		rewards = append(rewards, func(j int) float64 {
			r, _ := s.RewardB(at(j))
			return r
		})
	}
	rewardCols := table.SharedNumberColumns(titles, n, rewards...)
	cols = append(cols,
		table.KeyColumn("id", n, common.MaxIDWidth, id, id),
		rewardCols[0],
		table.Column{Title: "", Width: barWidth, Cell: func(j int) string { return signedBar(reward(j), scale, barWidth) }},
	)
	cols = append(cols, rewardCols[1:]...)
	// As compute writes them: a trajectory the group filter dropped has
	// the score and rank of the run without the filter, marked pending
	// until the root's job computes them.
	pending := func(j int) string {
		if _, _, ok := s.WrittenScoreRank(at(j)); !ok {
			return common.PendingValue
		}
		return ""
	}
	score := table.NumberColumn("score", n, func(j int) float64 { score, _, _ := s.WrittenScoreRank(at(j)); return score })
	cols = append(cols, table.MarkMissing(score, n, ansi.StringWidth(common.PendingValue), pending, pending),
		table.Column{Title: "rank", Number: true, Width: len("rank"), Cell: func(j int) string {
			_, rank, ok := s.WrittenScoreRank(at(j))
			if !ok {
				return common.PendingValue
			}
			return common.RankText(rank)
		}})
	if ev := res.Evaluation; ev.HasConstraints() { // as the Trajectories tab's
		violations := table.NewNumberFormatWhere(n, func(j int) (float64, bool) { return common.ShownViolation(ev, at(j)) })
		mark := func(j int) string { return common.FeasibleMark(ev, at(j), violations.Format) }
		cols = append(cols, table.TextColumn("feasible", n, maxFeasibleWidth, mark))
	}
	for k, o := range res.Objectives {
		col := table.NumberColumn(common.ObjectiveName(o.Name), n, func(j int) float64 { return res.Evaluation.Values[at(j)*res.Evaluation.M+k] })
		if common.CanLackValues(res.Evaluation) {
			absent := func(j int) string { return common.AbsentValue(res.Evaluation, at(j), k) }
			col = table.MarkMissing(col, n, common.AbsentWidth(res.Evaluation), absent, absent)
		}
		cols = append(cols, col)
	}
	// The response, last, takes the width the others leave once the id
	// grew into it.
	cols = append(cols, table.Column{Title: "response", Width: len("response"), Want: maxResponseWidth, Fill: true,
		CutSharedStart: v.sharedStart, Cell: func(j int) string { return v.completionLine(at(j)) }})
	return cols
}

// signedBar draws x on a bar of width cells centred on 0, whose halves
// stand for scale: "    ████│" for a negative x, "│████" for a positive.
func signedBar(x, scale float64, width int) string {
	half := (width - 1) / 2
	cells := 0
	if scale > 0 && !math.IsNaN(x) {
		cells = int(math.Round(min(math.Abs(x)/scale, 1) * float64(half)))
	}
	left, right := strings.Repeat(" ", half), strings.Repeat(" ", half)
	if x < 0 {
		left = strings.Repeat(" ", half-cells) + strings.Repeat("█", cells)
	} else {
		right = strings.Repeat("█", cells) + strings.Repeat(" ", half-cells)
	}
	return left + "│" + right
}

// startRead makes the read of the open group's completions members
// the job the root takes next (pendingRead): rereading lean ones from
// their files takes too long for the event loop. The first read, of the
// first maxSharedRows, also finds the start they share.
func (v *groupView) startRead(s *session.Session, members []int, first bool) {
	msg := completionsReadMsg{opened: v.opens, reloads: s.Reloads, first: first, lines: make(map[int]string, len(members))}
	trajectories := make([]*scoring.Trajectory, len(members))
	for j, i := range members {
		trajectories[j] = s.Trajectories.At(i)
		v.requested[i] = true
	}
	// The reader opens no file until the job reads: a job never run
	// leaves nothing open.
	reader := s.Rereader()
	reread := s.RereadChecked(reader)
	v.pendingRead = func() tea.Msg {
		defer reader.Close()
		for j, tr := range trajectories {
			msg.lines[members[j]] = readLine(s, members[j], tr, reread)
		}
		if first {
			msg.sharedStart = common.SharedAffixes(len(members), func(j int) string { return msg.lines[members[j]] }).Prefix
		}
		return msg
	}
}

// readShown starts the read of the completions on screen that are
// neither read nor being read (a large group's past its first
// maxSharedRows), unless a read is waiting for the root already.
func (v *groupView) readShown(s *session.Session) {
	if v.pendingRead != nil || !v.laidOut(s) {
		return
	}
	var members []int
	first, end := v.table.Shown()
	for _, i := range v.members[first:min(end, len(v.members))] {
		if _, read := v.completionLines[i]; !read && !v.requested[i] {
			members = append(members, i)
		}
	}
	if len(members) > 0 {
		v.startRead(s, members, false)
	}
}

// close lets go of the group's rows once it is no longer shown: a
// followed update may read the run again with fewer rows, against which
// a read landing or a resize would lay them out.
func (v *groupView) close() { v.members = nil }

// laidOut reports whether the group's rows are there to lay out: open,
// and of the run as it is read now (a followed update that read the run
// again, while the tab was hidden, made their places another run's: the
// tab's refresh opens the group again when shown).
func (v *groupView) laidOut(s *session.Session) bool {
	return v.members != nil && v.reloads == s.Reloads && s.Result != nil
}

// readDone takes the lines of a read (startRead) of the group open, of
// the run as read now, and, for the first, lays the table out again for
// the start they share. The message of a read of a group left since is
// dropped; that of a run read again since too, its completions to be
// read again (readShown).
func (v *groupView) readDone(c *common.Common, msg completionsReadMsg) {
	if msg.opened != v.opens {
		return
	}
	for i := range msg.lines {
		delete(v.requested, i)
	}
	if msg.reloads != c.Session.Reloads {
		return
	}
	for i, line := range msg.lines {
		v.completionLines[i] = line
	}
	if msg.first {
		v.sharedStart = msg.sharedStart
		if v.laidOut(c.Session) {
			v.layout(c)
		}
	}
}

// completionLine returns trajectory i's completion on one line
// (readLine) once read off the event loop, readingText until then.
func (v *groupView) completionLine(i int) string {
	if line, ok := v.completionLines[i]; ok {
		return line
	}
	return readingText
}

// readLine returns tr's completion, trajectory i's (session.ResponseText),
// on one line (common.OneLine), read again with reread
// (Session.RereadChecked) when the session keeps it lean.
func readLine(s *session.Session, i int, tr *scoring.Trajectory, reread func(int, *scoring.Trajectory) (scoring.Trajectory, error)) string {
	if !tr.Lean {
		return common.OneLine(s.ResponseText(tr))
	}
	full, err := reread(i, tr)
	if err != nil {
		return common.OneLine("(cannot read it again: " + err.Error() + ")")
	}
	return common.OneLine(s.ResponseText(&full))
}

// selected returns the trajectory under the cursor, -1 if none.
func (v *groupView) selected() int {
	if v.table.Cursor() >= len(v.members) {
		return -1
	}
	return v.members[v.table.Cursor()]
}

// view draws the prompt, the group's summary and its completions.
func (v *groupView) view(c *common.Common) string {
	st := c.Styles
	g := &v.summary
	counts := st.Title.Render(common.Count(g.N, "completion", "completions")) + st.Muted.Render(fmt.Sprintf(" · %d valid", g.Valid))
	key := ""
	if v.key != "" {
		key = st.Muted.Render("group ") + common.FitLine(v.key, max(v.width/3, 12))
	}
	opts := c.Session.Result.Options // the result's: a recompute may be under way
	std := common.FormatValue(g.ScoreStd(opts.Std))
	note, shortNote := stdNote(g, opts)
	if note != "" {
		std = undefinedScore
		note, shortNote = st.Muted.Render(note), st.Muted.Render(shortNote)
	}
	mean := common.FormatValue(g.Score.Mean)
	if scoreUndefined(g, g.Score.Mean, false) {
		mean = undefinedScore
	}
	score := st.Muted.Render("score mean ") + mean + st.Muted.Render(" "+diagnose.StdName(opts.Std)+" ") + std
	frontier := st.Muted.Render("frontier ") + strconv.Itoa(g.Frontier)
	zeroSpread := ""
	if g.NoSignal(c.Session.Result.Options) {
		zeroSpread = st.Warning.Render("zero spread: no GRPO signal")
	}
	var kept []string // the hint of the columns off screen and the sort
	if h := v.table.ScrollHint(); h != "" {
		kept = append(kept, st.Muted.Render(h))
	}
	kept = append(kept, v.sortPart(c))
	leads := [][]string{
		{counts, key, score, note, frontier, zeroSpread},
		{counts, key, score, note, zeroSpread},
		{counts, key, score, shortNote, frontier, zeroSpread},
		{counts, key, score, shortNote, zeroSpread},
	}
	if shortNote != "" { // of a group of one, it says what zeroSpread does
		leads = append(leads, []string{counts, key, score, shortNote})
	}
	leads = append(leads, []string{counts, key, score, zeroSpread}, []string{counts, key, zeroSpread}, []string{counts, zeroSpread})
	summary := fitSummary(st, v.width, leads, kept)
	return strings.Join(v.prompt, "\n") + "\n" + summary + "\n" + v.table.View()
}

// stdNote says why group g's std is undefined, when it is (scoreUndefined),
// and what the method of options o made of the group then, as the methods
// table has it (engine.MethodSpec): grpo and rloo, which read
// --group-of-one, give a group of one valid trajectory 0, TRL's convention,
// or with --group-of-one score what verl's trainer gives it; a method whose
// trainer fixes it (FixedGroupOfOne) gives 0 (rloo-whitened, grpo-passk) or
// takes the group's mean as 0, so that the group has signal (gpg, alpha s;
// rpp-baseline, s whitened over the batch). short is the same in fewer
// words, for a narrower line; both "" when the std is defined.
func stdNote(g *diagnose.GroupSummary, o engine.Options) (long, short string) {
	if !scoreUndefined(g, g.ScoreStd(o.Std), true) {
		return "", ""
	}
	if g.Score.Count == 0 {
		return "(no valid score: no std)", "(no valid score)"
	}
	const undefined, few = "(the std of one score is undefined", "(undefined for one score"
	method := textsafe.Line(string(o.Method))
	spec := engine.Spec(o.Method)
	m := o.MethodSettings() // the settings the method read
	switch {
	case o.Scope == engine.ScopeBatch || spec == nil: // no group of one compared
		return undefined + ")", few + ")"
	case !spec.ReadsGroupOfOne:
		trainer := ""
		if spec.AsIn != "" {
			trainer = ", as in " + spec.AsIn
		}
		switch spec.FixedGroupOfOne {
		case engine.GroupOfOneZero:
			return undefined + ": " + method + " rewards it 0" + trainer + ")", few + ": " + method + " gives 0)"
		case engine.GroupOfOneScore:
			return undefined + ": " + method + " takes mean 0, the group has signal" + trainer + ")", few + ": " + method + " takes mean 0)"
		}
		return undefined + ")", few + ")"
	case m.GroupOfOne == engine.GroupOfOneZero:
		return undefined + ": " + method + " rewards it 0, --group-of-one zero, TRL's)", few + ": " + method + " gives 0)"
	case o.Method == engine.RLOO:
		return undefined + ": rloo rewards it its score, --group-of-one score, verl's)", few + ": rloo gives s)"
	case m.Scale == engine.ScaleGroup:
		return undefined + ": grpo takes mean 0 and std 1, s / (1 + ε), --group-of-one score, verl's)", few + ": grpo takes 1)"
	}
	return undefined + ": grpo takes mean 0, --group-of-one score, verl's)", few + ": grpo takes mean 0)"
}

// fitSummary joins the first of the leads that fits width cells with
// kept, by " · ", empty parts left out; when none fits, the last lead is
// cut with an ellipsis before kept, which stays whole while it fits at
// all: the columns off screen and the sort are what the keys act on.
func fitSummary(st *common.Styles, width int, leads [][]string, kept []string) string {
	sep := st.Muted.Render(" · ")
	join := func(parts []string) string {
		return strings.Join(slices.DeleteFunc(slices.Clone(parts), func(p string) bool { return p == "" }), sep)
	}
	for _, lead := range leads {
		if line := join(append(slices.Clone(lead), kept...)); ansi.StringWidth(line) <= width {
			return line
		}
	}
	tail := sep + join(kept)
	if room := width - ansi.StringWidth(tail); room >= 2 {
		return ansi.Truncate(join(leads[len(leads)-1]), room, "…") + tail
	}
	return ansi.Truncate(join(append(slices.Clone(leads[len(leads)-1]), kept...)), width, "…")
}
