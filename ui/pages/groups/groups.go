package groups

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/natural"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/list"
	"github.com/rewardlens/rewardlens/ui/components/table"
	"github.com/rewardlens/rewardlens/ui/session"
)

// groupsMode is what the Groups tab shows.
type groupsMode int

const (
	groupList       groupsMode = iota // the batch's groups
	groupFiltering                    // typing the groups' filter
	groupMembers                      // one group's completions
	groupCompletion                   // one completion whole
)

// groupsKeyMap are the tab's keys beside the list's own.
type groupsKeyMap struct {
	Open, OpenCompletion, Back, BackToGroup, Scroll key.Binding
	// Ends are the reader's home and end (list.ScrollReader).
	Ends key.Binding
	// Columns describes the tables' left and right.
	Columns key.Binding
}

func newListKeyMap() list.KeyMap {
	return list.KeyMap{
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by the next column")),
		Reverse:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse the sort")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter by prompt or id")),
		ApplyFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep the filter (typing it)")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear the filter")),
	}
}

func newGroupsKeyMap() groupsKeyMap {
	return groupsKeyMap{
		Open:           key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the group")),
		OpenCompletion: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open a completion (in a group)")),
		Back:           key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the groups (in a group)")),
		BackToGroup:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the group (reading one)")),
		Scroll:         key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓/pgup/pgdn", "scroll")),
		Ends:           common.ReaderEndsKey(),
		Columns:        key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "scroll columns")),
	}
}

// setKeys enables the keys that work in mode.
func (t *groupsTab) setKeys(mode groupsMode) {
	k, lk := &t.keys, &t.list.Keys
	for _, b := range []*key.Binding{&lk.Filter, &k.Open} {
		b.SetEnabled(mode == groupList)
	}
	// The group view's rows sort as the groups do.
	lk.Sort.SetEnabled(mode == groupList || mode == groupMembers)
	lk.Reverse.SetEnabled(mode == groupList || mode == groupMembers)
	lk.ApplyFilter.SetEnabled(mode == groupFiltering)
	lk.ClearFilter.SetEnabled(mode == groupFiltering || (mode == groupList && t.list.Filtered()))
	k.OpenCompletion.SetEnabled(mode == groupMembers)
	k.Back.SetEnabled(mode == groupMembers)
	k.BackToGroup.SetEnabled(mode == groupCompletion)
	k.Scroll.SetEnabled(mode == groupCompletion)
	k.Ends.SetEnabled(mode == groupCompletion)
	k.Columns.SetEnabled(mode == groupList || mode == groupMembers)
}

// groupsTab lists the current batch's prompt groups with the engine's
// summary of each (engine.GroupSummaries), opens one to show its
// completions ranked by reward, and one of those whole.
type groupsTab struct {
	common        *common.Common
	keys          groupsKeyMap
	width, height int
	mode          groupsMode

	// summaries are the batch's groups and ranges their rewards' ranges;
	// rows the listed ones (indices in summaries), filtered and sorted.
	summaries []diagnose.GroupSummary
	ranges    []diagnose.RewardRange
	// prompts are the groups' prompts (groupPrompts), labels what the
	// group column shows of them: what tells them apart (groupLabels),
	// after the group's key tag where another group has its prompt
	// (keyTags), or its rows' where another has its key (addRunTags; ""
	// for the others); promptsUnread why the first prompt
	// that could not be read again was not, its key shown ("" for none).
	prompts, labels, keyTags []string
	promptsUnread            string
	rows                     []int
	// zero counts the listed groups without signal that hold a valid
	// trajectory, empty those that hold none (also marked "none") but
	// for dropped, those the group filter dropped (not invalid data).
	zero, empty, dropped int
	// byKey caches the groups' key order (see keyOrder).
	byKey struct {
		of    keyOrderOf
		order []int
	}
	// measured caches the columns that do not depend on the method,
	// measured over the listed groups, untitled: the summaries outlive a
	// method switch, which measures the reward columns alone.
	measured struct {
		of   measuredOf
		cols []table.Column
	}
	// list is the groups' table, its filter and sort, and the reader of
	// the opened completion.
	list list.List
	// columns are the table's: groupColumns, with a source column after
	// the group's with --source-by (sources.go).
	columns []groupColumn

	group groupView
}

// ShowsWritten implements common.WrittenShower: a group open (or one of
// its completions) that the group filter dropped.
func (t *groupsTab) ShowsWritten() bool {
	return (t.mode == groupMembers || t.mode == groupCompletion) && slices.ContainsFunc(t.group.members, t.common.Session.Dropped)
}

// New returns the Groups tab.
func New(c *common.Common) common.Tab {
	t := &groupsTab{common: c, keys: newGroupsKeyMap(), list: list.New(c.Styles, newListKeyMap(), "prompt or trajectory id")}
	t.columns = forOptions(groupColumns, t.options)
	t.group.table = table.New(c.Styles)
	t.setKeys(groupList)
	return t
}

func (t *groupsTab) Title() string { return "Groups" }

// options are those of the result shown.
func (t *groupsTab) options() engine.Options { return t.common.Session.Result.Options }

// CapturesKeys tells the root to leave every key to the filter being typed.
func (t *groupsTab) CapturesKeys() bool { return t.mode == groupFiltering }

// ShowsDetail implements common.DetailShower: a group or a completion is
// open.
func (t *groupsTab) ShowsDetail() bool { return t.mode == groupMembers || t.mode == groupCompletion }

// ShowsCompare implements common.Comparer: an opened group shows method
// B's rewards beside A's.
func (t *groupsTab) ShowsCompare() bool { return true }

// Job implements common.Worker: the read of the opened completion
// (list.List.Job), of an opened group's first completions
// (groupView.startRead), or of those on screen not read yet (readShown).
// The root asks after every message the tab handled, so a row scrolled to
// is read once it shows.
func (t *groupsTab) Job() func() tea.Msg {
	if job := t.list.Job(); job != nil {
		return job
	}
	if t.mode == groupMembers {
		t.group.readShown(t.common.Session)
	}
	job := t.group.pendingRead
	t.group.pendingRead = nil
	return job
}

// OwnsFind tells the root that / is this tab's own search on the list of
// groups; in an opened group or completion / is the global find.
func (t *groupsTab) OwnsFind() bool { return t.mode == groupList || t.mode == groupFiltering }

func (t *groupsTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.list.SetSize(width, height)
	t.list.Table.SetSize(width, max(height-1, 1))
	t.layoutColumns()
	t.group.setSize(t.common, width, height)
	if t.mode == groupCompletion {
		t.list.Reread(t.common)
	}
}

func (t *groupsTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	cmd := t.update(msg)
	t.group.noteSelected(t.common.Session)
	return t, tea.Batch(cmd, t.group.selectedAt.GoneNotice(&t.list.Reading))
}

func (t *groupsTab) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		return t.refresh()
	case completionsReadMsg:
		t.group.readDone(t.common, msg)
	case list.OpenedMsg:
		cmd := t.list.ReadDone(t.common, msg)
		if !t.list.Gone() || t.mode != groupCompletion {
			return nil
		}
		t.setMode(groupMembers)
		return cmd
	case tea.KeyPressMsg:
		return t.handleKey(msg)
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			t.click(msg.Mouse().Y)
		}
	case tea.MouseWheelMsg:
		switch t.mode {
		case groupCompletion:
			t.list.Reader, _ = t.list.Reader.Update(msg)
		case groupMembers:
			t.group.table.Update(msg)
		default:
			t.list.Table.Update(msg)
		}
	}
	return nil
}

// click selects the row drawn at line y of the body.
func (t *groupsTab) click(y int) {
	switch t.mode {
	case groupList:
		t.list.Table.Click(y - 1) // under the status line
	case groupMembers:
		t.group.table.Click(y - t.group.tableTop())
	}
}

func (t *groupsTab) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := t.keys
	switch t.mode {
	case groupFiltering:
		cmd, done, kept := t.list.TypeFilter(msg)
		if done {
			t.setMode(groupList)
		}
		t.rebuild()
		if kept {
			return t.whereElse()
		}
		return cmd
	case groupCompletion:
		if key.Matches(msg, k.BackToGroup) {
			t.setMode(groupMembers)
			return nil
		}
		return t.list.ScrollReader(msg)
	case groupMembers:
		switch {
		case key.Matches(msg, k.Back):
			t.setMode(groupList)
		case key.Matches(msg, k.OpenCompletion):
			t.openCompletion()
		case key.Matches(msg, t.list.Keys.Sort), key.Matches(msg, t.list.Keys.Reverse):
			t.group.resort(t.common, key.Matches(msg, t.list.Keys.Sort))
		default:
			t.group.table.Update(msg)
		}
		return nil
	}
	switch {
	case t.list.Sorting(msg, len(t.columns)):
		t.rebuild()
		t.list.Table.ShowColumn(t.list.SortColumn)
	case key.Matches(msg, t.list.Keys.Filter):
		t.setMode(groupFiltering)
		return t.list.StartFilter()
	case key.Matches(msg, t.list.Keys.ClearFilter):
		t.list.Filter.Reset()
		t.rebuild()
	case key.Matches(msg, k.Open):
		t.openGroup()
	default:
		t.list.Table.Update(msg)
	}
	return nil
}

func (t *groupsTab) setMode(mode groupsMode) {
	t.mode = mode
	if mode == groupList || mode == groupFiltering {
		t.group.close()
	}
	if mode != groupFiltering {
		t.list.StopFilter()
	}
	t.setKeys(mode)
}

// refresh takes the batch's groups from the session, keeping the open
// group and completion when they are still in it.
func (t *groupsTab) refresh() tea.Cmd {
	s := t.common.Session
	if s.Result == nil {
		return nil
	}
	var key string
	first := -1
	if j := t.list.Table.Cursor(); j < len(t.rows) {
		key, first = t.summaries[t.rows[j]].Key, firstMember(&t.summaries[t.rows[j]])
	}
	t.setColumns(s.Result.Evaluation)
	summaries := diagnose.GroupSummaries(s.Result, s.CurrentBatch())
	if len(summaries) == 0 || len(t.summaries) != len(summaries) || &summaries[0] != &t.summaries[0] {
		t.prompts, t.promptsUnread = groupPrompts(s, summaries)
		t.labels = groupLabels(t.prompts)
		t.keyTags = keyTags(t.prompts, summaries)
		if s.Result.Evaluation.GroupsRuns() {
			addRunTags(t.keyTags, s.CurrentBatch(), summaries)
		}
	}
	t.summaries = summaries
	t.ranges = diagnose.GroupRewardRanges(s.Result, s.CurrentBatch())
	t.rebuild()
	if g := t.indexOf(key, first); g >= 0 {
		if j := slices.Index(t.rows, g); j >= 0 {
			t.list.Table.SetCursor(j)
		}
	}
	if t.mode == groupMembers || t.mode == groupCompletion {
		g := t.indexOf(t.group.summary.Key, firstMember(&t.group.summary))
		if g < 0 {
			t.setMode(groupList) // the group left with its batch
			return nil
		}
		t.group.open(t.common, &t.summaries[g], t.prompts[g], t.labels[g], t.shownKey(g), true)
		if t.mode == groupCompletion {
			cmd := t.list.Reread(t.common) // found where it is now
			if t.list.Gone() || !slices.Contains(t.summaries[g].Members, t.list.Opened.I) {
				t.setMode(groupMembers)
				t.list.Close()
			}
			return cmd
		}
	}
	return nil
}

// Prepare implements common.Preparer: it computes the group summaries and
// reward ranges of batch bi of res, which the tab shows, off the event
// loop, so that the tab's refresh finds them computed.
func (t *groupsTab) Prepare(res *engine.Result, bi int) {
	if len(res.Ranking.Batches) > 0 {
		diagnose.GroupRewardRanges(res, &res.Ranking.Batches[min(max(bi, 0), len(res.Ranking.Batches)-1)])
	}
}

// whereElse says, when the kept filter lists no group of the batch on
// screen, the batch that has a trajectory whose id or group key it
// matches (common.BatchWithMatch), if one has: 0 groups alone reads as
// an id that does not exist. Other batches' prompts and sources, which
// the filter also matches here, are not read: without such a batch the
// notice speaks of this batch only.
func (t *groupsTab) whereElse() tea.Cmd {
	s := t.common.Session
	filter := t.list.FilterText()
	if len(t.rows) > 0 || filter == "" {
		return nil
	}
	typed := `"` + textsafe.Line(t.list.Filter.Value()) + `"`
	notice := "no group of this batch matches " + typed + " (ids, group keys, prompts, sources)"
	if b := common.BatchWithMatch(s, filter); b >= 0 {
		notice = "no group of this batch matches " + typed + "; one of " + common.BatchName(s, b) + " does ([ and ] move)"
	}
	// True while this filter is kept on this batch.
	batch := s.Batch
	holds := func() bool { return t.list.FilterText() == filter && t.common.Session.Batch == batch }
	return func() tea.Msg { return common.NoticeMsg{Text: notice, Holds: holds} }
}

// indexOf returns the index in summaries of the group of key whose first
// member is first, which tells apart the groups of one key (a prompt in
// two slots of a TRL batch: addRunTags), else of the first group of key
// (its members moved: a file read again), -1 if none.
func (t *groupsTab) indexOf(key string, first int) int {
	found := -1
	for g := range t.summaries {
		switch {
		case t.summaries[g].Key != key:
		case firstMember(&t.summaries[g]) == first:
			return g
		case found < 0:
			found = g
		}
	}
	return found
}

// firstMember is g's first trajectory, -1 when it has none.
func firstMember(g *diagnose.GroupSummary) int {
	if len(g.Members) == 0 {
		return -1
	}
	return g.Members[0]
}

// rebuild lists the groups that match the filter, sorted.
func (t *groupsTab) rebuild() {
	s := t.common.Session
	if of := (keyOrderOf{s.Evaluation, s.CurrentBatch().Step, len(t.summaries)}); of != t.byKey.of {
		t.byKey.of, t.byKey.order = of, nil // other groups
	}
	filter := t.list.FilterText()
	t.rows, t.zero, t.empty, t.dropped = t.rows[:0], 0, 0, 0
	for g := range t.summaries {
		if filter == "" || t.matches(s, g, filter) {
			t.rows = append(t.rows, g)
		}
	}
	t.sortRows()
	// The groups without signal that hold a valid trajectory are those
	// frac_zero_std_groups and health's zero_spread count
	// (BatchStats.ZeroStdGroups); those without one are counted apart,
	// and those the filter dropped apart from them: the filter drops a
	// group's valid members, so a dropped group holds a dropped one.
	for _, g := range t.rows {
		switch sum := &t.summaries[g]; {
		case sum.Valid == 0 && s.Result.Evaluation.DroppedIn(sum.Members) > 0:
			t.dropped++
		case sum.Valid == 0:
			t.empty++
		case sum.NoSignal(s.Result.Options):
			t.zero++
		}
	}
	t.list.Table.SetRows(len(t.rows))
	t.layoutColumns()
	t.setKeys(t.mode)
}

// sortRows sorts the listed groups by the sort column, ties in batch
// order. By key, they are taken in the order of keyOrder, which a new
// result of the same batch does not change; by a number, values and
// indices are sorted together, which on 125,000 groups is several times
// faster than comparing through the summaries.
func (t *groupsTab) sortRows() {
	value := t.columns[t.list.SortColumn].value
	if value == nil {
		order := t.keyOrder()
		listed := make([]bool, len(t.summaries))
		for _, g := range t.rows {
			listed[g] = true
		}
		t.rows = t.rows[:0]
		for _, g := range order {
			if listed[g] {
				t.rows = append(t.rows, g)
			}
		}
		if t.list.Descending {
			slices.Reverse(t.rows)
		}
		return
	}
	type entry struct {
		v float64
		g int
	}
	entries := make([]entry, len(t.rows))
	for j, g := range t.rows {
		entries[j] = entry{value(&t.summaries[g], &t.ranges[g]), g}
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if t.list.Descending {
			return cmp.Or(cmp.Compare(b.v, a.v), cmp.Compare(a.g, b.g))
		}
		return cmp.Or(cmp.Compare(a.v, b.v), cmp.Compare(a.g, b.g))
	})
	for j, e := range entries {
		t.rows[j] = e.g
	}
}

// keyOrder returns the indices of the summaries in key order, sorting
// them only when the evaluation or the batch changed (see rebuild).
func (t *groupsTab) keyOrder() []int {
	if len(t.byKey.order) != len(t.summaries) {
		order := make([]int, len(t.summaries))
		for g := range order {
			order[g] = g
		}
		slices.SortFunc(order, func(a, b int) int {
			return cmp.Or(natural.Compare(t.labels[a], t.labels[b]), natural.Compare(t.keyTags[a], t.keyTags[b]), cmp.Compare(a, b))
		})
		t.byKey.order = order
	}
	return t.byKey.order
}

// keyOrderOf says which groups a key order is of.
type keyOrderOf struct {
	ev     *engine.Evaluation
	step   int64
	groups int
}

// matches reports whether group g's key, its prompt, its source or one
// of its trajectories' ids contains filter (lower case).
func (t *groupsTab) matches(s *session.Session, g int, filter string) bool {
	if strings.Contains(strings.ToLower(t.summaries[g].Key), filter) || strings.Contains(strings.ToLower(t.prompts[g]), filter) ||
		strings.Contains(strings.ToLower(t.sourceOf(g)), filter) {
		return true
	}
	for _, i := range t.summaries[g].Members {
		if strings.Contains(strings.ToLower(s.Trajectories.At(i).ID), filter) {
			return true
		}
	}
	return false
}

// groupColumn is a column of the groups' table: its title, the value it
// shows and sorts by (nil for the key, sorted as text), and how it shows
// it.
type groupColumn struct {
	title string
	value func(g *diagnose.GroupSummary, r *diagnose.RewardRange) float64
	kind  groupColumnKind
}

// groupColumnKind is how a column shows its value, and whether a method
// switch measures it again.
type groupColumnKind int

const (
	keyColumn     groupColumnKind = iota // the group's key, cut to fit
	sourceColumn                         // the group's source (sources.go)
	signalColumn                         // "none" for a group of zero spread
	integerColumn                        // an integer
	numberColumn                         // a score statistic (mean, min, max); with the std, "–" where undefined (scoreUndefined)
	stdColumn                            // the scores' std, titled by the std option
	rewardColumn                         // a reward statistic: it depends on the method
)

// quantity is what a number column's values are of: the columns of one
// quantity show theirs in one format, chosen from all of them, so that
// beside each other one value reads the same.
type quantity int

const (
	noQuantity     quantity = iota // not a number column
	scoreQuantity                  // the scores' mean, std, min and max
	rewardQuantity                 // the rewards' min and max
)

// quantity returns the quantity of a column of kind k.
func (k groupColumnKind) quantity() quantity {
	switch k {
	case numberColumn, stdColumn:
		return scoreQuantity
	case rewardColumn:
		return rewardQuantity
	}
	return noQuantity
}

// undefinedScore is the cell of a score statistic the group's valid
// scores do not define (scoreUndefined): the mean, min and max of a group
// without any, the sample std (std1) of one with fewer than two, whose
// view says what the method made of it (stdNote).
const undefinedScore = "–"

// forOptions returns columns with those that depend on the options of
// the result shown, options, set: the scores' std column reads the std
// grpo's normalisation takes under their std (diagnose.GroupSummary.ScoreStd,
// fixed for a session), titled in CONTRACT's notation (std1, the sample
// std, by default), and the signal column whether the group has signal
// under them (NoSignal: the method changes it).
func forOptions(columns []groupColumn, options func() engine.Options) []groupColumn {
	std := options().Std
	out := slices.Clone(columns)
	for c := range out {
		switch out[c].kind {
		case signalColumn:
			out[c].value = func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 {
				return float64(boolInt(!g.NoSignal(options())))
			}
		case stdColumn:
			out[c].title = diagnose.StdName(std)
			out[c].value = func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 { return g.ScoreStd(std) }
		}
	}
	return out
}

// groupColumns are the groups' table's columns, in order.
var groupColumns = []groupColumn{
	{"group", nil, keyColumn},
	{"signal", nil, signalColumn}, // whether the group has signal under the options (forOptions)
	{"n", func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 { return float64(g.N) }, integerColumn},
	{"valid", func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 { return float64(g.Valid) }, integerColumn},
	{"score mean", func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 { return g.Score.Mean }, numberColumn},
	{"std", nil, stdColumn}, // the std the options take (forOptions)
	{"min", func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 { return g.Score.Min }, numberColumn},
	{"max", func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 { return g.Score.Max }, numberColumn},
	{"frontier", func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 { return float64(g.Frontier) }, integerColumn},
	{"reward min", func(_ *diagnose.GroupSummary, r *diagnose.RewardRange) float64 { return r.Min }, rewardColumn},
	{"reward max", func(_ *diagnose.GroupSummary, r *diagnose.RewardRange) float64 { return r.Max }, rewardColumn},
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxGroupKeyWidth caps the group column: a key is often a whole prompt.
const maxGroupKeyWidth = 40

// layoutColumns sizes the table's columns to the listed groups, measuring
// again only the reward columns while the summaries and the listed groups
// stay (see measured). The number columns of one quantity share one
// format (measureQuantity).
func (t *groupsTab) layoutColumns() {
	keyWidth := min(maxGroupKeyWidth, max(t.width/3, 12))
	of := measuredOf{groups: len(t.summaries), filter: t.list.Filter.Value(), keyWidth: keyWidth}
	if len(t.summaries) > 0 {
		of.summaries = &t.summaries[0]
	}
	if of != t.measured.of {
		t.measured.of, t.measured.cols = of, make([]table.Column, len(t.columns))
	}
	for _, q := range []quantity{scoreQuantity, rewardQuantity} {
		if q == rewardQuantity || t.unmeasured(q) {
			t.measureQuantity(q)
		}
	}
	cols := make([]table.Column, len(t.columns))
	for c := range t.columns {
		col := t.measured.cols[c]
		if col.Cell == nil {
			col = t.measureColumn(c, keyWidth)
			t.measured.cols[c] = col
		}
		col.Title = t.title(c)
		col.Width = max(col.Width, ansi.StringWidth(col.Title))
		cols[c] = col
	}
	t.list.Table.SetColumns(cols, 1)
}

// unmeasured reports whether a column of quantity q is not measured.
func (t *groupsTab) unmeasured(q quantity) bool {
	for c := range t.columns {
		if t.columns[c].kind.quantity() == q && t.measured.cols[c].Cell == nil {
			return true
		}
	}
	return false
}

// measuredOf says which groups the measured columns are of: the
// summaries (their array and length) and the filter that lists some.
type measuredOf struct {
	summaries *diagnose.GroupSummary // the first
	groups    int
	filter    string
	keyWidth  int
}

// measureColumn returns column c of the listed groups, untitled, as wide
// as its widest cell; the key column at most keyWidth. The widths depend
// on which groups are listed, not on their order: when all are, they are
// measured in batch order, which reads memory in sequence: faster than in
// table order on a large batch.
func (t *groupsTab) measureColumn(c, keyWidth int) table.Column {
	n := len(t.rows)
	listed := func(j int) int { return t.rows[j] }
	measured := listed
	if n == len(t.summaries) {
		measured = func(j int) int { return j }
	}
	value := t.columns[c].value
	at := func(g int) float64 { return value(&t.summaries[g], &t.ranges[g]) }
	switch t.columns[c].kind {
	case keyColumn:
		col := table.TextColumn("", n, keyWidth, func(j int) string { return common.KeyLine(t.groupCell(measured(j))) })
		col.Cell = func(j int) string { return common.KeyLine(t.groupCell(listed(j))) }
		return col
	case sourceColumn:
		return t.sourceTableColumn(n, listed, measured)
	case signalColumn:
		return table.Column{Width: len("none"), Cell: func(j int) string {
			if t.summaries[listed(j)].NoSignal(t.common.Session.Result.Options) {
				return "none"
			}
			return ""
		}}
	default: // integerColumn; the number columns are measureQuantity's
		col := table.IntColumn("", n, func(j int) int { return int(at(measured(j))) })
		col.Cell = func(j int) string { return strconv.Itoa(int(at(listed(j)))) }
		return col
	}
}

// measureQuantity measures the columns of quantity q over the listed
// groups (in batch order when all are, as measureColumn does), untitled,
// in one format chosen from the values of all of them (the std, a
// spread, counting for whether they are integers, as the Objectives
// tab's row does), each as wide as its widest cell.
func (t *groupsTab) measureQuantity(q quantity) {
	n := len(t.rows)
	listed := func(j int) int { return t.rows[j] }
	measured := listed
	if n == len(t.summaries) {
		measured = func(j int) int { return j }
	}
	var cs []int
	for c := range t.columns {
		if t.columns[c].kind.quantity() == q {
			cs = append(cs, c)
		}
	}
	shared := make([]table.SharedColumn, len(cs))
	for k, c := range cs {
		value, std := t.columns[c].value, t.columns[c].kind == stdColumn
		shared[k] = table.SharedColumn{
			Value:    func(j int) float64 { g := listed(j); return value(&t.summaries[g], &t.ranges[g]) },
			Measured: func(j int) float64 { g := measured(j); return value(&t.summaries[g], &t.ranges[g]) },
			Spread:   std,
		}
		if q == scoreQuantity {
			shared[k].Skip = func(j int, x float64) bool { return scoreUndefined(&t.summaries[measured(j)], x, std) }
		}
	}
	cols, f := table.SharedNumberColumnsOf(n, shared...)
	for k, c := range cs {
		col := cols[k]
		if q == scoreQuantity {
			at, std := shared[k].Value, shared[k].Spread
			col.Width = max(col.Width, ansi.StringWidth(undefinedScore))
			col.Cell = func(j int) string {
				if x := at(j); !scoreUndefined(&t.summaries[listed(j)], x, std) {
					return f.Format(x)
				}
				return undefinedScore
			}
		}
		t.measured.cols[c] = col
	}
}

// scoreUndefined reports whether x, a statistic of group g's scores (its
// std when std), is NaN for want of valid scores: the mean, min and max
// of none, and the sample std (diagnose.GroupSummary.ScoreStd) of one or
// none, are undefined.
func scoreUndefined(g *diagnose.GroupSummary, x float64, std bool) bool {
	if std {
		return math.IsNaN(x) && g.Score.Count < 2
	}
	return math.IsNaN(x) && g.Score.Count == 0
}

// title is column c's title, with the sort arrow on the sort column.
func (t *groupsTab) title(c int) string {
	if c != t.list.SortColumn {
		return t.columns[c].title
	}
	return t.columns[c].title + common.SortArrow(t.list.Descending)
}

// openGroup shows the group under the cursor.
func (t *groupsTab) openGroup() {
	if t.list.Table.Cursor() >= len(t.rows) {
		return
	}
	t.group.table.SetCursor(0)
	t.group.table.ShowFirstColumns()
	g := t.rows[t.list.Table.Cursor()]
	t.group.open(t.common, &t.summaries[g], t.prompts[g], t.labels[g], t.shownKey(g), false)
	t.setMode(groupMembers)
}

// openCompletion shows the completion under the cursor whole.
func (t *groupsTab) openCompletion() {
	i := t.group.selected()
	if i < 0 {
		return
	}
	t.list.Open(t.common, i)
	t.setMode(groupCompletion)
}

func (t *groupsTab) View() string {
	if t.common.Session.Result == nil || t.width <= 0 {
		return ""
	}
	var v string
	switch t.mode {
	case groupMembers:
		v = t.group.view(t.common)
	case groupCompletion:
		status := t.list.ReaderStatus(t.common.Styles, " · in group "+common.FitLine(common.KeyLine(t.groupLabel()), t.width/4))
		v = lipgloss.JoinVertical(lipgloss.Left, status, t.list.Reader.View())
	default:
		v = t.listStatus() + "\n" + t.list.Table.View()
	}
	return common.FitBox(v, t.width, t.height)
}

// listStatus is the line over the groups' table.
func (t *groupsTab) listStatus() string {
	st := t.common.Styles
	zero, empty, dropped := "", "", ""
	if t.zero > 0 {
		zero = st.Warning.Render(fmt.Sprintf("%d without GRPO signal (zero spread)", t.zero))
	}
	if t.empty > 0 {
		empty = st.Warning.Render(fmt.Sprintf("%d without a valid trajectory", t.empty))
	}
	if t.dropped > 0 { // by the group filter: not invalid data
		dropped = fmt.Sprintf("%d dropped", t.dropped)
	}
	unread := ""
	if t.promptsUnread != "" {
		unread = st.Invalid.Render("a key in place of its prompt: " + t.promptsUnread)
	}
	return t.list.Status(st, t.mode == groupFiltering,
		st.Title.Render(common.Count(len(t.rows), "group", "groups")),
		st.Muted.Render("sorted by ")+t.list.SortTitle(t.columns[t.list.SortColumn].title),
		unread, zero, empty, dropped)
}

// columnsKey is ←/→, offered only when the table shown (the groups', or
// an open group's) has columns off screen: with every column shown they
// would do nothing.
func (t *groupsTab) columnsKey() key.Binding {
	shown := &t.list.Table
	if t.mode == groupMembers {
		shown = &t.group.table
	}
	return shown.OnlyWhenScrolls(t.keys.Columns)
}

func (t *groupsTab) ShortHelp() []key.Binding {
	k, lk := t.keys, t.list.Keys
	k.Columns = t.columnsKey()
	return []key.Binding{common.PairHelp(k.Open, "enter", "open"), common.PairHelp(k.OpenCompletion, "enter", "open"),
		common.PairHelp(k.Back, "esc", "back"), common.PairHelp(k.BackToGroup, "esc", "back"), k.Scroll,
		common.PairHelp(lk.Sort, "s/S", "sort"), common.PairHelp(lk.Filter, "/", "filter"), common.PairHelp(lk.ApplyFilter, "enter", "keep"),
		common.PairHelp(lk.ClearFilter, "esc", "clear"), k.Columns}
}

func (t *groupsTab) FullHelp() [][]key.Binding {
	k, lk, tk := t.keys, t.list.Keys, t.list.Table.Keys
	k.Columns = t.columnsKey()
	rows := []key.Binding{tk.Up, tk.Down, tk.PageUp, tk.PageDown, tk.Home, tk.End, k.Columns}
	if t.mode == groupCompletion {
		rows = nil // a completion is read, no table shown: home and end are the reader's
	}
	return [][]key.Binding{
		rows,
		{k.Open, lk.Sort, lk.Reverse, lk.Filter, lk.ApplyFilter, lk.ClearFilter},
		{k.OpenCompletion, k.Back, k.Scroll, k.Ends, k.BackToGroup},
	}
}

// groupLabel is what the group column shows of the open group.
func (t *groupsTab) groupLabel() string {
	if g := t.indexOf(t.group.summary.Key, firstMember(&t.group.summary)); g >= 0 {
		return t.groupCell(g)
	}
	return t.group.summary.Key
}

// groupCell is what the group column shows of group g: its key tag and
// its label.
func (t *groupsTab) groupCell(g int) string { return t.keyTags[g] + t.labels[g] }

// shownKey is what group g's view shows after "group " where its
// prompt does not tell it apart: its key (another group has its prompt:
// keyTags), or its rows (another has its key, which is its prompt:
// addRunTags); "" elsewhere.
func (t *groupsTab) shownKey(g int) string {
	switch {
	case t.keyTags[g] == "":
		return ""
	case t.prompts[g] == t.summaries[g].Key:
		return strings.Trim(t.keyTags[g], "[] ")
	}
	return t.summaries[g].Key
}

// ShowGroup implements common.GroupShower: trajectory i's group open,
// with i selected; the filter is cleared when it hides that group.
func (t *groupsTab) ShowGroup(i int) {
	g := slices.IndexFunc(t.summaries, func(s diagnose.GroupSummary) bool { return slices.Contains(s.Members, i) })
	if g < 0 {
		return
	}
	if slices.Index(t.rows, g) < 0 {
		t.list.Filter.Reset()
		t.rebuild()
	}
	j := slices.Index(t.rows, g)
	if j < 0 {
		return
	}
	t.setMode(groupList)
	t.list.Table.SetCursor(j)
	t.openGroup()
	t.group.table.SetCursor(max(slices.Index(t.group.members, i), 0))
	t.group.noteSelected(t.common.Session)
}
