// Package common is what every part of rewardlens' dashboard shares: the
// Common each component is built from, the Component and Tab interfaces,
// the message that the session changed, the styles, and the helpers that
// format numbers and fit text in cells.
package common

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/ui/session"
)

// Common is what every component shares: the size it may draw in, the
// styles, the session whose data it shows, and the gate its work waits at
// between its steps when nothing may be waiting for it.
type Common struct {
	Width, Height int              // the cells of the whole screen
	Styles        *Styles          // the dashboard's styles, for the terminal's background
	Session       *session.Session // the data shown, owned by the root model
	// Background is held by the root while the screen waits for work that
	// no hidden tab's (a Prefetcher's) waits for: such a tab's job waits
	// at it between its steps, leaving the cores to that work.
	Background *pause.Gate
}

// Component is a part of the screen: a tab's body, the header, the footer.
// The root sends tea.WindowSizeMsg and SessionChangedMsg to every tab,
// HiddenMsg to a tab not shown, and every other message to the active tab
// only.
type Component interface {
	help.KeyMap
	Update(msg tea.Msg) (Component, tea.Cmd)
	View() string
	// SetSize gives the component the cells it may draw in.
	SetSize(width, height int)
}

// Tab is a Component shown under a title in the tab bar.
type Tab interface {
	Component
	Title() string
}

// SessionChangedMsg tells every tab that the session's result changed (a
// recompute, another batch, new data): rebuild what is derived from it.
type SessionChangedMsg struct{}

// HiddenMsg tells a tab that it is not shown: another tab was selected,
// or its work off the event loop landed while it was hidden (prefetched).
// It may let go of what it keeps only to make its next work faster while
// shown, so that a tab visited once, or never, holds no more than what it
// draws.
type HiddenMsg struct{}

// ShowBatchMsg asks the root to show batch Batch (Session.Batch): a tab
// never changes the session itself. The Trajectories filter sends it when
// it found nothing in the batch on screen and a trajectory in that one.
// Notice, when set, is shown on the status line: why the batch changed.
type ShowBatchMsg struct {
	Batch  int
	Notice string
}

// BatchWithMatch returns the first batch after the one on screen (round
// to it) with a trajectory whose id or group holds filter (IDMatches),
// -1 when none has one: a filter finds an id wherever it is, not only in
// the batch on screen.
func BatchWithMatch(s *session.Session, filter string) int {
	n := len(s.Result.Ranking.Batches)
	for k := 1; k < n; k++ {
		b := (s.Batch + k) % n
		for _, i := range s.Result.Ranking.Batches[b].Members {
			if IDMatches(s.Trajectories.At(i), filter) {
				return b
			}
		}
	}
	return -1
}

// IDMatches reports whether filter, in lower case as the filters match,
// is in tr's id or group.
func IDMatches(tr *scoring.Trajectory, filter string) bool {
	return strings.Contains(strings.ToLower(tr.ID), filter) || strings.Contains(strings.ToLower(tr.Group), filter)
}

// BatchName names batch b as the header does: "step 9: batch 10/10".
func BatchName(s *session.Session, b int) string {
	return fmt.Sprintf("step %d: batch %d/%d", s.Result.Ranking.Batches[b].Step, b+1, len(s.Result.Ranking.Batches))
}

// CompareMethodMsg asks the root to make Method the method B of a
// comparison (Session.CompareMethod) and recompute.
//
// Asked is the count of methods B asked so far by the tab that asks it
// (0: not counted): commands run at once may deliver two in either
// order, and the root takes no method asked before the one it took last.
type CompareMethodMsg struct {
	Method engine.Method
	Asked  uint64
}

// NoticeMsg asks the root to show Text on the status line for a while
// (statusline.NoticeLifetime): what a key did, or why it did nothing.
//
// Holds, when set, says whether Text is still true: the root asks it
// after every message (on the event loop, so it may read the tab) and
// drops the notice once it is not, as when the selection it describes
// moved; nil, the notice lives its time.
type NoticeMsg struct {
	Text  string
	Holds func() bool
}

// ShowGroupMsg asks the root to show batch Batch and the group of its
// trajectory Trajectory open, on the tab that is a GroupShower, with that
// trajectory selected (Compare's o, Prompts' enter).
type ShowGroupMsg struct{ Batch, Trajectory int }

// GroupShower is the tab that shows a trajectory's group open (Groups).
type GroupShower interface {
	ShowGroup(trajectory int)
}

// The optional interfaces a tab may implement; the root asks for them and
// never names a concrete tab.

// KeyCapturer is a tab that is reading text (a filter being typed): while
// CapturesKeys is true every key but ctrl+c goes to the tab, so that typing
// "q" or "1" does not quit or switch tabs.
type KeyCapturer interface {
	CapturesKeys() bool
}

// FindingsLister is a tab that lists the health findings, cut to its
// width: its help (?) lists them whole first.
type FindingsLister interface {
	ListsFindings()
}

// DetailShower is a tab that shows one group or one trajectory of the
// batch on screen: while ShowsDetail is true, following (--follow) does
// not move the view to a newer batch, which would close it.
type DetailShower interface {
	ShowsDetail() bool
}

// WrittenShower is a tab that shows what compute --filter-groups writes
// of a trajectory the group filter dropped (Session.WrittenScoreRank)
// while ShowsWritten is true: the root computes those, a pass over the
// whole run, only for such a tab shown.
type WrittenShower interface {
	ShowsWritten() bool
}

// FindOwner is a tab whose own search / starts (a filter of its list); on
// the other tabs / finds a trajectory by id on the TrajectoryFinder.
type FindOwner interface {
	OwnsFind() bool
}

// TrajectoryFinder is the tab that finds a trajectory by id: Find brings
// its filter up, ready to type in.
type TrajectoryFinder interface {
	Find() tea.Cmd
}

// Preparer is a tab that wants work done on a recompute's result before it
// is shown, off the event loop, so that its refresh finds it done (the
// Groups tab's reward ranges). While the tab is shown, a recompute calls
// Prepare on its own goroutine: Prepare may read res only, and no field of
// the tab.
type Preparer interface {
	Prepare(res *engine.Result, batch int)
}

// StatsShower is a tab that shows the shown batch's statistics
// (session.Session.BatchStats): while it is shown, a recompute computes
// them off the event loop, beside its other work. For another tab it
// computes only the counts the header shows, and the statistics wait
// for a tab to ask, or for the health job, which computes every batch's.
type StatsShower interface {
	ShowsStats()
}

// JobPreparer is a tab whose job on a recompute's result can start with
// the recompute, beside the statistics: PrepareJob, called on the event
// loop as a recompute of the options shown starts, returns the work to
// run on the recompute's goroutine once its result exists (nil for none),
// given that result and what waits for method B's result when the
// recompute computes it too (else returns nil at once); the tab's refresh
// on that result then takes what it made rather than make it again.
type JobPreparer interface {
	PrepareJob() func(res *engine.Result, computed func() *engine.Result)
}

// Comparer is a tab that shows method B's result beside the session's
// (Session.CompareResult), while ShowsCompare: showing it, or a recompute
// while it is shown, computes B's result off the event loop when it must
// (Session.CompareNeeded), and the tab shows it is computing meanwhile.
type Comparer interface {
	ShowsCompare() bool
}

// SettingKeyer is a tab with keys that choose a setting, as the root's
// method keys do, rather than act on what the tab shows: pressed while
// the run loads, with the tab chosen by then, they apply once it opens
// (the Compare tab's method B).
type SettingKeyer interface {
	SettingKeys() []key.Binding
}

// HealthReadyMsg tells every tab that the current result's trends and
// health findings were computed off the event loop (Session.Trends and
// Findings read them from then on).
type HealthReadyMsg struct{}

// HealthWaiter is a tab whose view waits for the health (the Steps tab's
// trends): shown, the root starts a new result's health at once rather
// than after the short delay that lets another tab's frame be drawn first.
type HealthWaiter interface {
	WaitsForHealth() bool
}

// Computing is what a tab shows while the work it waits for runs off the
// event loop: what it computes, muted, on the tab's first line.
func Computing(st *Styles, what string, width int) string {
	return st.Muted.Render(FitLine("computing "+what+"…", width))
}

// Worker is a tab whose view of the session takes work too long for the
// event loop. After each message the tab handles and each new size, the
// root asks it for Job: the work its view still needs, nil when there is
// none or it was handed out already. The root runs the job as a command
// and sends the message it returns to the tab, shown or not. Meanwhile
// the tab shows that it is computing (Computing), or what it showed
// before (the Trajectories tab's rows while they sort); it numbers its jobs and
// drops the message of one it no longer needs (the session changed
// since). A job may read the session's results and trajectories only: no
// field of the tab, nothing the event loop writes.
type Worker interface {
	Job() func() tea.Msg
}
