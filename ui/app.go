// Package ui is rewardlens' terminal dashboard: the loading screen, then
// the root model, which owns the Session, routes the global keys, lays the
// screen out (header, tab bar, status line, help), draws the overlays and
// runs the recomputes off the event loop. Each tab is a package of its own
// under ui/pages, built from a common.Common; the root knows them only as
// common.Tab and the optional interfaces of ui/common. The numbers shown
// come from engine, stats and health.
package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/header"
	"github.com/rewardlens/rewardlens/ui/components/helpoverlay"
	"github.com/rewardlens/rewardlens/ui/components/statusline"
	"github.com/rewardlens/rewardlens/ui/components/structureeditor"
	"github.com/rewardlens/rewardlens/ui/components/tabbar"
	"github.com/rewardlens/rewardlens/ui/pages"
	"github.com/rewardlens/rewardlens/ui/session"
)

// The smallest terminal the dashboard draws in; below it the body says so.
const (
	minWidth  = 60
	minHeight = 16
)

// bodyTop is the screen row where tab bodies start, under the header and
// the tab bar: mouse messages reach the tabs with Y counted from it.
const bodyTop = 2

// Model is the dashboard's root model. It owns the session: global keys
// change its options and recompute it, then every tab hears
// SessionChangedMsg. Routing follows soft-serve: global keys first, window
// sizes to every tab, any other message to the active tab only. Session
// changes reach the active tab at once and the others when they are next
// shown, so that a recompute costs one tab's rebuild, not six.
type Model struct {
	common *common.Common
	isDark bool
	keys   keyMap
	help   help.Model
	tabs   []common.Tab
	// stale marks the tabs that have not yet heard the last SessionChangedMsg.
	stale   []bool
	tabBar  tabbar.Bar
	active  int
	header  header.Header
	status  statusline.Line
	weights weightEditor
	// overlay is the full help (?), drawn over the tab's body.
	overlay helpoverlay.Overlay
	// settings saves the settings (ctrl+s).
	settings session.SettingsSaver
	// rc runs the recomputes (recompute.go).
	rc recomputer
	// filter is the group filter's toggle (filter.go).
	filter filterToggle
	// jobs are the tabs' jobs under way (jobs.go), lastJob the last id.
	jobs    []tabJob
	lastJob int
	// live is follow mode (live.go), nil without --follow.
	live *liveState
	// layoutNext is the command computing the layout's warnings of a
	// result made on the event loop until it lands (layoutnotes.go).
	layoutNext tea.Cmd
	// writtenNext is the command computing what compute writes of the
	// group filter's dropped trajectories until it lands (written.go).
	writtenNext tea.Cmd
	// exportNext is the command writing an export (e) until it lands
	// (export.go).
	exportNext tea.Cmd
	// tabBarWidest is widestTabBar's, for the screen width it was
	// measured at (the tabs are fixed, and the styles' colours change no
	// width); measured says it was.
	tabBarWidest struct {
		width, cells int
		measured     bool
	}
	// footer is helpView's last footer, with what it was drawn from.
	footer footerDrawn
	// frame is the screen last rendered, which View returns again while
	// frameValid: the program asks for a frame after every message, and
	// drawing one costs more than handling a key (see keepsFrame).
	frame      string
	frameValid bool
	// body is the size of the tabs' area; sizes, the size each tab was
	// last given. A hidden tab is given its size when it is next shown:
	// its SetSize may rebuild it (the Trajectories tab sorts its rows).
	body  tabSize
	sizes []tabSize
}

// tabSize is the cells given to a tab's body.
type tabSize struct{ width, height int }

// NewModel returns the dashboard on a ready session, in colour unless
// noColor, with dark-background styles until the terminal says otherwise.
func NewModel(session *session.Session, noColor bool) *Model {
	c := &common.Common{Session: session, Styles: common.NewStyles(true, noColor)}
	m := &Model{
		common:  c,
		isDark:  true,
		help:    help.New(),
		overlay: helpoverlay.New(),
		tabs:    pages.New(c),
	}
	m.keys = newKeyMap(len(m.tabs))
	objective, _ := session.FilterObjective()
	m.keys.FilterGroups.SetEnabled(objective != "")
	m.filter.on = session.Filter.On
	m.stale = make([]bool, len(m.tabs))
	m.sizes = make([]tabSize, len(m.tabs))
	m.tabBar = tabbar.New(m.tabs)
	m.help.Styles = c.Styles.Help
	return m
}

// Init asks for the terminal's background and lets every tab build its
// view of the session.
func (m *Model) Init() tea.Cmd {
	cmd := tea.Batch(tea.RequestBackgroundColor, m.sessionChanged())
	m.paceForeground()
	return cmd
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	model, cmd := m.update(msg)
	// A notice of what is selected goes once the selection moved, by a
	// key or by new data.
	if m.status.DropUntrue() {
		m.frameValid = false
	}
	if m.live != nil {
		cmd = tea.Batch(cmd, m.releaseDetail())
	}
	// What a message changed (the result, the tab, the group open) may
	// show a dropped trajectory's written values.
	cmd = tea.Batch(cmd, m.writtenScores())
	m.paceForeground()
	return model, cmd
}

// update is Update but for the collector's pace.
func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.frameValid = m.frameValid && m.keepsFrame(msg)
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m, m.resize(msg)
	case tea.BackgroundColorMsg:
		return m, m.restyle(msg.IsDark())
	case common.CompareMethodMsg:
		if msg.Asked != 0 && msg.Asked < m.rc.compareAsked {
			return m, nil // overtaken by one asked after it
		}
		m.rc.compareAsked = max(m.rc.compareAsked, msg.Asked)
		return m, m.setCompareMethod(msg.Method)
	case common.ShowGroupMsg:
		return m, m.showGroup(msg)
	case common.NoticeMsg:
		return m, m.status.SetInfoWhile(msg.Text, msg.Holds)
	case common.ShowBatchMsg:
		cmd := m.moveBatch(msg.Batch - m.common.Session.Batch)
		if msg.Notice != "" {
			cmd = tea.Batch(cmd, m.status.SetInfo(msg.Notice))
		}
		return m, cmd
	case recomputedMsg:
		return m, tea.Batch(m.recomputed(msg), m.resumeBackground())
	case filteredMsg:
		return m, tea.Batch(m.filtered(msg), m.resumeBackground())
	case healthDoneMsg:
		return m, tea.Batch(m.healthDone(msg), prefetchDue)
	case prefetchDueMsg:
		return m, m.prefetchOnce()
	case prefetchedMsg:
		return m, tea.Batch(m.prefetched(msg), m.resumeBackground())
	case backgroundDueMsg:
		return m, tea.Batch(m.startBackground(msg.job), prefetchDue)
	case liveMsg:
		return m, m.liveUpdate(msg)
	case layoutNotesMsg:
		return m, m.layoutNotesDone(msg)
	case writtenMsg:
		return m, m.writtenDone(msg)
	case exportedMsg:
		return m, m.exported(msg)
	case loggedCountedMsg:
		return m, m.loggedCounted(msg)
	case quietMsg:
		return m, m.quiet(msg)
	case recomputeDueMsg:
		return m, m.startRecompute()
	case statusline.ExpiredMsg:
		m.status.Expire(msg)
		return m, nil
	case structureeditor.DoneMsg:
		return m, tea.Batch(m.structureThen(m.weights.structure.Done(m.common.Session, msg)), m.resumeBackground())
	case jobDoneMsg:
		return m, tea.Batch(m.jobDone(msg), m.resumeBackground())
	case tea.KeyPressMsg:
		if cmd, handled := m.handleKey(msg); handled {
			return m, cmd
		}
	case tea.MouseClickMsg:
		if mouse := msg.Mouse(); mouse.Y == 1 {
			if i := m.tabBar.TabAt(mouse.X, m.active, m.common.Width); i >= 0 {
				m.overlay.Open = false
				return m, m.selectTab(i)
			}
		}
		if m.overlay.Open {
			return m, nil // the tab is under the help
		}
	case tea.MouseWheelMsg:
		if m.overlay.Open {
			m.overlay.Update(msg)
			return m, nil
		}
	case tea.PasteMsg:
		if cmd, typing := m.updateEditorInput(msg); typing {
			return m, cmd
		}
	}
	cmd := m.updateActive(toBody(msg, m.bodyTop()))
	// The weights editor's text input also needs messages of types it
	// does not export (its cursor's blinks, what ctrl+v read from the
	// clipboard): it hears every one the tab does, and ignores the others.
	if input, typing := m.updateEditorInput(msg); typing {
		cmd = tea.Batch(cmd, input)
	}
	return m, cmd
}

// updateEditorInput hands msg to the text input typed in in the weights
// editor, a weight's or the structure line's, and says whether there is
// one.
func (m *Model) updateEditorInput(msg tea.Msg) (tea.Cmd, bool) {
	switch {
	case !m.weights.active:
		return nil, false
	case m.weights.typing:
		return m.weights.updateInput(msg), true
	case m.weights.structure.Typing():
		return m.weights.structure.UpdateInput(msg), true
	}
	return nil, false
}

// View implements tea.Model: full screen, with mouse cell motion for the
// tab bar and the charts' wheel zoom.
func (m *Model) View() tea.View {
	if !m.frameValid {
		m.frame, m.frameValid = m.render(), true
	}
	v := tea.NewView(m.frame)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "rewardlens"
	return v
}

// widestTabBar is the width of the tab bar with the tab whose bar is
// widest shown, measured again only when the screen's width changed.
func (m *Model) widestTabBar() int {
	w := &m.tabBarWidest
	if w.measured && w.width == m.common.Width {
		return w.cells
	}
	w.width, w.cells, w.measured = m.common.Width, 0, true
	for i := range m.tabs {
		w.cells = max(w.cells, ansi.StringWidth(m.tabBar.View(m.common.Styles, i, m.common.Width)))
	}
	return w.cells
}

// render draws the screen: header, tab bar, the weights line while editing
// them, the active tab's body, the status line and the help.
func (m *Model) render() string {
	c := m.common
	if c.Width < minWidth || c.Height < minHeight {
		return tooSmallView(c.Styles, c.Width, c.Height)
	}
	head, goalsShown := m.header.View(c, c.Width, false)
	bar := m.tabBar.View(c.Styles, m.active, c.Width)
	if !goalsShown {
		// The goals get the room the widest tab bar leaves, whichever
		// tab is shown: else they come and go, or move, with the tabs.
		padded := bar + strings.Repeat(" ", max(m.widestTabBar()-ansi.StringWidth(bar), 0))
		var withGoals string
		if withGoals, goalsShown = header.WithGoals(c, padded, c.Width); goalsShown {
			bar = withGoals
		} else if compact, ok := m.header.View(c, c.Width, true); ok {
			head = compact
		}
	}
	rows := []string{head, bar}
	if m.weights.active {
		rows = append(rows, m.weights.view(c, c.Width)...)
		rows = append(rows, m.weights.structure.View(c, c.Width, m.live != nil)...)
	}
	w, h := m.bodySize()
	body := m.tabs[m.active].View()
	if m.overlay.Open {
		body = m.overlay.View(c.Styles, m.tabs[m.active].Title(), w, h)
	}
	rows = append(rows, common.FitBox(body, w, h), m.status.View(c.Styles, c.Width), m.helpView())
	return lipgloss.JoinVertical(lipgloss.Left, rows...)
}

// bodySize returns the cells left to the active tab.
func (m *Model) bodySize() (width, height int) {
	chrome := m.bodyTop() + 1 + lipgloss.Height(m.helpView())
	return m.common.Width, max(m.common.Height-chrome, 0)
}

// tooSmallView fills the screen with what size the dashboard needs, each
// sentence wrapped at its words, in the first of its wordings, longest
// first, whose lines all fit: a terminal that small would otherwise cut
// it mid-word. The last is cut only where a word is wider than the
// screen.
func tooSmallView(st *common.Styles, width, height int) string {
	type sentence struct {
		text  string
		style lipgloss.Style
	}
	title, plain := sentence{"Terminal too small", st.Invalid}, lipgloss.NewStyle()
	size := sentence{fmt.Sprintf("%dx%d; rewardlens needs at least %dx%d.", width, height, minWidth, minHeight), plain}
	wordings := [][]sentence{
		{title, size, {"Enlarge the window, or press q to quit.", st.Muted}},
		{title, size},
		{title, {fmt.Sprintf("needs %dx%d", minWidth, minHeight), plain}},
		{{"too small", st.Invalid}},
	}
	var lines []string
	for _, wording := range wordings {
		lines = lines[:0]
		fits := true
		for _, s := range wording {
			for line := range strings.SplitSeq(ansi.Wordwrap(s.text, width, ""), "\n") {
				fits = fits && ansi.StringWidth(line) <= width
				lines = append(lines, s.style.Render(line))
			}
		}
		if fits && len(lines) <= height {
			break
		}
	}
	return common.FitBox(lipgloss.Place(width, height, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n")), width, height)
}

// helpView renders the help, cut to the screen's width: the help bubble
// lets the last item of a full line overflow when its ellipsis does not
// fit either. It is drawn again only when the keys offered, the width or
// the background changed (footerDrawn).
func (m *Model) helpView() string {
	full, short, keep := m.helpKeys()
	f := &m.footer
	if f.drawn && f.width == m.common.Width && f.dark == m.isDark && sameBindings(f.short, short) && sameBindings(f.keep, keep) {
		return f.view
	}
	v := m.help.View(fixedKeyMap{short: footerKeys(m.help, short, keep, m.common.Width), full: full})
	*f = footerDrawn{
		// Copies: a tab may return a slice it changes in place later.
		short: slices.Clone(short), keep: slices.Clone(keep),
		width: m.common.Width, dark: m.isDark, drawn: true,
		view: common.FitBox(v, m.common.Width, lipgloss.Height(v)),
	}
	return f.view
}

// helpKeys are the keys the footer offers: short, the active tab's keys
// followed by the global ones, to be fitted to the width with keep, ?
// help and q quit, and F follow while follow mode is paused, always kept
// (footerKeys): what is cut is the global keys that ? lists; full, all of
// them. While the weights are edited, the
// editor's keys come first and the tab's are left out: the editor takes
// some of them (←/→ select a constraint), and says what its keys do.
// While text is typed, only the keys that work then, and ctrl+c; while
// the help is open, its own keys and ctrl+c, as it takes every other.
func (m *Model) helpKeys() (full help.KeyMap, short, keep []key.Binding) {
	joined := joinedKeyMap{m.tabs[m.active], m.keys}
	if m.weights.active {
		joined = joinedKeyMap{m.keys}
	}
	short, keep = joined.ShortHelp(), []key.Binding{m.keys.Help, m.keys.Quit}
	if m.live != nil && m.live.tag() != "LIVE" {
		// Paused (a detail held, another batch shown): F, back to the
		// newest, is kept, else a tab's many keys crowd it out.
		keep = append([]key.Binding{common.PairHelp(m.keys.Follow, "F", "follow")}, keep...)
	}
	if typing, ok := m.typingKeys(); ok {
		short, keep = typing, []key.Binding{common.PairHelp(m.keys.Quit, "ctrl+c", "quit")}
	}
	if m.overlay.Open {
		short, keep = m.overlay.ShortHelp(), []key.Binding{common.PairHelp(m.keys.Quit, "ctrl+c", "quit")}
	}
	return joined, short, keep
}

// typingKeys returns the keys that work while text is typed, in a tab
// (common.KeyCapturer) or in the weights editor, and whether it is:
// handleKey then leaves every other key but ctrl+c to the text.
func (m *Model) typingKeys() ([]key.Binding, bool) {
	if t, ok := m.tabs[m.active].(common.KeyCapturer); ok && t.CapturesKeys() {
		return m.tabs[m.active].ShortHelp(), true
	}
	if m.weights.active && m.weights.typing {
		return []key.Binding{weightApplyKey, weightCancelKey}, true
	}
	if m.weights.active && m.weights.structure.Typing() {
		return m.weights.structure.TypingKeys(), true
	}
	return nil, false
}

// helpContent is what ? shows: the status line's notice and warnings
// whole, the
// active tab's keys (helpTab), the global ones and the methods' formulas.
func (m *Model) helpContent() helpoverlay.Content {
	title, tab := m.helpTab()
	global := m.keys
	if m.weights.active && !m.weights.structure.Selects(m.common.Session) {
		global.EditStructure.SetEnabled(false)   // enter goes to the tab (helpTab)
		global.RemoveStructure.SetEnabled(false) // x has nothing to remove
	}
	return helpoverlay.Content{Layout: m.status.Layout(), Warnings: m.status.Warnings(), Notice: m.status.Notice(), Findings: m.findingTexts(), Title: title, Tab: tab, Global: global, Options: m.common.Session.Result.Options}
}

// findingTexts are the session's health findings whole, ALERTs first,
// for the help of a tab that lists them cut (common.FindingsLister);
// none while the health is computed.
func (m *Model) findingTexts() []string {
	if _, ok := m.tabs[m.active].(common.FindingsLister); !ok {
		return nil
	}
	var texts []string
	for _, f := range common.AlertsFirst(m.common.Session.Findings()) {
		texts = append(texts, common.FindingText(f))
	}
	return texts
}

// helpTab returns the title of the help's section of the active tab's
// keys and those keys: while the weights are edited, only those the
// editor leaves to the tab (a binding of which it takes a key is left
// out: on the Pareto tab, ←/→ select a constraint, not a point).
func (m *Model) helpTab() (string, helpoverlay.FullHelper) {
	tab := m.tabs[m.active]
	if !m.weights.active {
		return tab.Title() + " tab", tab
	}
	taken := map[string]bool{}
	for _, b := range m.keys.editorKeys() {
		if b == &m.keys.EditStructure && !m.weights.structure.Selects(m.common.Session) {
			continue // nothing to edit: enter goes to the tab
		}
		for _, k := range b.Keys() {
			taken[k] = true
		}
	}
	var left [][]key.Binding
	for _, group := range tab.FullHelp() {
		var kept []key.Binding
		for _, b := range group {
			if !slices.ContainsFunc(b.Keys(), func(k string) bool { return taken[k] }) {
				kept = append(kept, b)
			}
		}
		left = append(left, kept)
	}
	return tab.Title() + " tab (what the weights editor leaves to it)", fullHelp(left)
}

// fullHelp is a helpoverlay.FullHelper of bindings already chosen.
type fullHelp [][]key.Binding

func (f fullHelp) FullHelp() [][]key.Binding { return f }

// joinedKeyMap shows several keymaps in one help view.
type joinedKeyMap []help.KeyMap

func (j joinedKeyMap) ShortHelp() []key.Binding {
	var bs []key.Binding
	for _, k := range j {
		bs = append(bs, k.ShortHelp()...)
	}
	return bs
}

func (j joinedKeyMap) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	for _, k := range j {
		cols = append(cols, k.FullHelp()...)
	}
	return cols
}

// resize lays the screen out again and tells every tab.
func (m *Model) resize(msg tea.WindowSizeMsg) tea.Cmd {
	m.common.Width, m.common.Height = max(msg.Width, 0), max(msg.Height, 0)
	return tea.Batch(m.layout(), m.broadcast(msg))
}

// layout gives the active tab the body's size, which changes with the
// window and with the help's height (the active tab's keys, the weight
// mode, ?). Tabs redraw on SetSize, so it is called only when the size
// changed; the other tabs get theirs when shown (selectTab). It returns
// the job the new size needs, if any.
func (m *Model) layout() tea.Cmd {
	m.help.SetWidth(m.common.Width)
	w, h := m.bodySize()
	m.body = tabSize{w, h}
	var cmd tea.Cmd
	if m.sizeTab(m.active) {
		cmd = m.takeJob(m.active)
	}
	if m.overlay.Open {
		m.overlay.Resize(m.common.Styles, m.helpContent(), w, h)
	}
	return cmd
}

// sizeTab gives tab i the body's size unless it has it already (tabs
// redraw on SetSize), and reports whether its size changed.
func (m *Model) sizeTab(i int) bool {
	if m.sizes[i] == m.body {
		return false
	}
	m.sizes[i] = m.body
	m.tabs[i].SetSize(m.body.width, m.body.height)
	return true
}

// restyle rebuilds the styles for the terminal's background; the tabs
// rebuild their views on the SessionChangedMsg that follows.
func (m *Model) restyle(isDark bool) tea.Cmd {
	if !m.setBackground(isDark) {
		return nil
	}
	return m.sessionChangedTabs()
}

// setBackground rebuilds the styles, in place (every tab holds the same
// *Styles), when the background changed; it reports whether it did.
func (m *Model) setBackground(isDark bool) bool {
	if isDark == m.isDark {
		return false
	}
	m.isDark = isDark
	*m.common.Styles = *common.NewStyles(isDark, m.common.Styles.NoColor)
	m.help.Styles = m.common.Styles.Help
	return true
}

// broadcast sends msg to every tab.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, len(m.tabs))
	for i := range m.tabs {
		cmds[i] = m.updateTab(i, msg)
	}
	return tea.Batch(cmds...)
}

// updateActive sends msg to the active tab.
func (m *Model) updateActive(msg tea.Msg) tea.Cmd { return m.updateTab(m.active, msg) }

// updateTab updates tab i, which stays a Tab (Component.Update returns a
// Component, and a tab that returned anything else would be a bug), and
// takes the job the message left it.
func (m *Model) updateTab(i int, msg tea.Msg) tea.Cmd {
	c, cmd := m.tabs[i].Update(msg)
	m.tabs[i] = c.(common.Tab)
	return tea.Batch(cmd, m.takeJob(i))
}

// applyEarlyKeys applies, in order, the keys pressed on the loading screen
// that choose a tab or a method, the tab's own setting keys among them
// (common.SettingKeyer: method B on the Compare tab chosen before), as if
// pressed on the first frame; the others acted on a screen the user did
// not see, and are dropped.
func (m *Model) applyEarlyKeys(keys []tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	var cmds []tea.Cmd
	for _, msg := range keys {
		setting, ok := m.tabs[m.active].(common.SettingKeyer)
		if key.Matches(msg, k.Tab, k.NextTab, k.PrevTab, k.NextMethod, k.PrevMethod) || ok && key.Matches(msg, setting.SettingKeys()...) {
			_, cmd := m.Update(msg)
			cmds = append(cmds, cmd)
		}
	}
	return tea.Batch(cmds...)
}

// selectTab makes tab i active, bringing it up to date with the session,
// and tells the tab it leaves that it is hidden. A tab shown for the first
// time since the session changed hears it first, then gets its size.
func (m *Model) selectTab(i int) tea.Cmd {
	left := m.active
	m.active = (i + len(m.tabs)) % len(m.tabs)
	var hidden tea.Cmd
	if left != m.active {
		hidden = m.updateTab(left, common.HiddenMsg{})
	}
	cmd := m.refreshActive()
	return tea.Batch(hidden, cmd, m.layout(), m.computeCompare())
}

// sessionChangedTabs tells the active tab that the session changed and
// marks the others stale.
func (m *Model) sessionChangedTabs() tea.Cmd {
	for i := range m.stale {
		m.stale[i] = true
	}
	return m.refreshActive()
}

// refreshActive sends SessionChangedMsg to the active tab if it missed one.
func (m *Model) refreshActive() tea.Cmd {
	if !m.stale[m.active] {
		return nil
	}
	m.stale[m.active] = false
	return m.updateActive(common.SessionChangedMsg{})
}

// bodyTop returns the screen row where the active tab's body starts: under
// the weights editor's lines too while they are shown.
func (m *Model) bodyTop() int {
	if m.weights.active {
		return bodyTop + len(m.weights.view(m.common, m.common.Width)) + len(m.weights.structure.View(m.common, m.common.Width, m.live != nil))
	}
	return bodyTop
}

// toBody returns a mouse message with Y counted from top, the first row of
// the tab bodies; other messages are returned as they are.
func toBody(msg tea.Msg, top int) tea.Msg {
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		msg.Y -= top
		return msg
	case tea.MouseReleaseMsg:
		msg.Y -= top
		return msg
	case tea.MouseWheelMsg:
		msg.Y -= top
		return msg
	case tea.MouseMotionMsg:
		msg.Y -= top
		return msg
	}
	return msg
}

// handleKey handles the global keys; handled is false for the keys that
// belong to the active tab.
func (m *Model) handleKey(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	if m.overlay.Open {
		if msg.String() == "ctrl+c" {
			return tea.Quit, true
		}
		m.overlay.Update(msg)
		return nil, true
	}
	if t, ok := m.tabs[m.active].(common.KeyCapturer); ok && t.CapturesKeys() {
		if msg.String() == "ctrl+c" {
			return tea.Quit, true
		}
		return nil, false
	}
	if m.weights.active {
		if msg.String() == "ctrl+c" {
			return tea.Quit, true
		}
		if m.weights.typing {
			return m.handleWeightInput(msg), true
		}
		if cmd, handled := m.handleStructureKey(msg); handled {
			return cmd, true
		}
		if cmd, handled := m.handleWeightKey(msg); handled {
			return cmd, true
		}
	}
	k := &m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit, true
	case key.Matches(msg, k.Tab):
		return m.selectTab(int(msg.Code - '1')), true
	case key.Matches(msg, k.NextTab):
		return m.selectTab(m.active + 1), true
	case key.Matches(msg, k.PrevTab):
		return m.selectTab(m.active - 1), true
	case key.Matches(msg, k.NextMethod):
		return m.cycleMethod(1), true
	case key.Matches(msg, k.PrevMethod):
		return m.cycleMethod(-1), true
	case key.Matches(msg, k.Scope):
		return m.toggleScope(), true
	case key.Matches(msg, k.Normalize):
		return m.toggleNormalize(), true
	case key.Matches(msg, k.FilterGroups):
		return m.toggleFilter(), true
	case key.Matches(msg, k.PrevBatch):
		return m.stepBatch(-1), true
	case key.Matches(msg, k.NextBatch):
		return m.stepBatch(1), true
	case (msg.String() == "[" || msg.String() == "]") && !k.NextBatch.Enabled():
		return m.status.SetInfo(msg.String() + ": the run has one batch"), true
	case key.Matches(msg, k.Follow):
		return m.resumeFollow(), true
	case msg.String() == "f" && !k.FilterGroups.Enabled():
		return m.status.SetInfo("f: the group filter needs --filter-groups OBJECTIVE"), true
	case msg.String() == "F" && m.live == nil:
		return m.status.SetInfo("F: following the newest batch needs --follow"), true
	case key.Matches(msg, k.EditWeights):
		return m.setWeightMode(true), true
	case key.Matches(msg, k.Export):
		return m.exportRewards(), true
	case key.Matches(msg, k.Save):
		return m.saveSettings(), true
	case key.Matches(msg, k.Help):
		w, h := m.bodySize()
		m.overlay.Show(m.common.Styles, m.helpContent(), w, h)
	case key.Matches(msg, k.Find):
		return m.find()
	default:
		return nil, false
	}
	return nil, true
}

// handleWeightKey handles the keys of the weight-editing mode.
func (m *Model) handleWeightKey(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	k, objectives := &m.keys, len(m.common.Session.Evaluation.Objectives)
	switch {
	case key.Matches(msg, k.PrevObjective):
		m.weights.move(-1, objectives)
	case key.Matches(msg, k.NextObjective):
		m.weights.move(1, objectives)
	case (key.Matches(msg, k.IncreaseWeight) || key.Matches(msg, k.DecreaseWeight) || key.Matches(msg, k.TypeWeight)) && m.common.Session.Evaluation.HasSources():
		m.weights.err = sourceWeightsRefused
		return m.layout(), true
	case key.Matches(msg, k.IncreaseWeight):
		return m.changeWeight(weightStep), true
	case key.Matches(msg, k.DecreaseWeight):
		return m.changeWeight(-weightStep), true
	case key.Matches(msg, k.TypeWeight):
		o := m.common.Session.Evaluation.Objectives[m.weights.selected]
		return tea.Batch(m.weights.startTyping(o.Name, m.common.Session.Weights()[m.weights.selected]), m.layout()), true
	case key.Matches(msg, k.ObjectiveNorm):
		return m.cycleObjectiveNorm(), true
	case key.Matches(msg, k.DoneWeights):
		return m.setWeightMode(false), true
	default:
		return nil, false
	}
	return nil, true
}

// setWeightMode enters or leaves the weight-editing mode.
func (m *Model) setWeightMode(on bool) tea.Cmd {
	m.weights.active = on
	m.keys.setWeightMode(on)
	return m.layout()
}

// Session returns the session the dashboard shows.
func (m *Model) Session() *session.Session { return m.common.Session }
