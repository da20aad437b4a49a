package ui

import (
	"fmt"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// progressInterval is how often the loading screen redraws the bytes read.
const progressInterval = 50 * time.Millisecond

// loadingModel is the screen Run starts on: it runs Input.Load and builds
// the session in a command (another goroutine), so that keys keep working
// while a large file is read, and shows the bytes read. It then hands over
// to the dashboard, or shows the error.
type loadingModel struct {
	in            Input
	noColor       bool
	isDark        bool
	styles        *common.Styles
	bar           progress.Model
	read          *bytesRead
	width, height int
	err           error
	// early are the keys pressed while loading but q and ctrl+c, in
	// order: the dashboard applies those that choose a tab or a method
	// once it opens (applyEarlyKeys).
	early []tea.KeyPressMsg
}

// bytesRead is what Load's progress callback last reported. It is written
// by the loading goroutine and read by View: atomics, rather than one
// message per callback, which could flood the program on a fast disk.
// waiting is set while following inputs that hold no trajectory yet.
type bytesRead struct {
	done, total atomic.Int64
	waiting     atomic.Bool
	// unended are the warnings of the followed files whose last line
	// stays without its line end, while waiting.
	unended atomic.Pointer[[]string]
}

// loadedMsg carries the session built from the input, or why there is
// none, and in follow mode the follower's updates.
type loadedMsg struct {
	session *session.Session
	updates <-chan loaders.Update
	waited  waitNotes
	err     error
}

// progressTickMsg makes the loading screen redraw the bytes read.
type progressTickMsg struct{}

func newLoadingModel(in Input, noColor bool) *loadingModel {
	return &loadingModel{
		in:      in,
		noColor: noColor,
		isDark:  true,
		styles:  common.NewStyles(true, noColor),
		bar:     newProgressBar(noColor),
		read:    &bytesRead{},
	}
}

// newProgressBar returns a bar in the default colours, or in plain runes
// with NO_COLOR.
func newProgressBar(noColor bool) progress.Model {
	if noColor {
		bar := progress.New(progress.WithFillCharacters('#', '.'), progress.WithColors(lipgloss.NoColor{}))
		bar.EmptyColor = lipgloss.NoColor{}
		return bar
	}
	return progress.New(progress.WithDefaultBlend())
}

// Init starts the load.
func (m *loadingModel) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, m.load, tickProgress())
}

// load reads the input and builds the session: the command that runs in
// its own goroutine.
func (m *loadingModel) load() tea.Msg {
	progress := func(done, total int64) {
		m.read.done.Store(done)
		m.read.total.Store(total)
	}
	var (
		s       *session.Session
		updates <-chan loaders.Update
		waited  waitNotes
		err     error
	)
	if m.in.Follow != nil {
		s, updates, waited, err = m.in.followedSession(progress, func(unended []loaders.Unended) {
			said := make([]string, len(unended))
			for i, u := range unended {
				said[i] = u.String()
			}
			m.read.unended.Store(&said)
			m.read.waiting.Store(true)
		})
	} else {
		s, err = m.in.session(progress)
	}
	if err == nil {
		s.Layout = m.in.Layout
		// Objectives inferred are said as compute says them on stderr.
		s.InferredNote = m.in.Config.InferredNote(s.Config)
		s.LayoutWarningsRead, s.RunNote = m.in.LayoutWarningsRead, m.in.RunNote
		rowCap := s.HealthConfig.RowCap
		if m.in.Follow != nil {
			s.FollowLayoutWarnings(func(lines map[int64]string) func(*engine.Result, []int) []string {
				return m.in.layoutWarnings(rowCap, lines)
			})
		} else {
			s.LayoutWarnings = m.in.layoutWarnings(rowCap, s.Computer.LinesLeftOut)
		}
		err = s.SetHealth(m.in.Health, m.in.HVRef)
	}
	if err == nil {
		err = s.SetFilterGroups(m.in.Config.FilterGroups)
	}
	if err == nil {
		s.SetLayoutNotes(s.LayoutNotesJob().Of(s.Result)) // off the event loop, with the first result
	}
	return loadedMsg{session: s, updates: updates, waited: waited, err: err}
}

// tickProgress asks for the next redraw of the bytes read.
func tickProgress() tea.Cmd {
	return tea.Tick(progressInterval, func(time.Time) tea.Msg { return progressTickMsg{} })
}

// Update implements tea.Model.
func (m *loadingModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.bar.SetWidth(min(max(msg.Width-8, 10), 60))
	case tea.BackgroundColorMsg:
		m.isDark = msg.IsDark()
		m.styles = common.NewStyles(m.isDark, m.noColor)
	case progressTickMsg:
		if m.err == nil {
			return m, tickProgress()
		}
	case loadedMsg:
		if msg.err != nil {
			m.err = msg.err
			return m, nil
		}
		return m.open(msg.session, msg.updates, msg.waited)
	case tea.KeyPressMsg:
		// q and ctrl+c quit during the load; after an error, any key does.
		if m.err != nil || msg.String() == "q" || msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		m.early = append(m.early, msg)
	}
	return m, nil
}

// open hands over to the dashboard on s, in the colours and at the size
// the loading screen learnt; in follow mode (updates not nil), following,
// with waited what the follower said while the load waited for the first
// trajectories.
func (m *loadingModel) open(s *session.Session, updates <-chan loaders.Update, waited waitNotes) (tea.Model, tea.Cmd) {
	if m.in.Opened != nil {
		m.in.Opened()
	}
	app := NewModel(s, m.noColor)
	// Run by a program, its work runs beside the event loop, and may step
	// aside for the screen's (foreground.go); a model driven without one
	// has no gate: Settle runs that work on the goroutine that would hold it.
	app.common.Background = new(pause.Gate)
	app.setBackground(m.isDark)
	start := app.Init()
	if updates != nil {
		start = tea.Batch(start, app.follow(updates, waited))
	}
	_, resize := app.Update(tea.WindowSizeMsg{Width: m.width, Height: m.height})
	return app, tea.Batch(start, resize, app.applyEarlyKeys(m.early))
}

// View implements tea.Model.
func (m *loadingModel) View() tea.View {
	v := tea.NewView(lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, m.content()))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "rewardlens"
	return v
}

// content is the progress, or the error that stopped the load.
func (m *loadingModel) content() string {
	st := m.styles
	source := textsafe.Line(m.in.Source)
	if m.err != nil {
		return lipgloss.JoinVertical(lipgloss.Left,
			st.Invalid.Render("Could not open "+source),
			"",
			lipgloss.NewStyle().Width(min(max(m.width-4, 20), 100)).Render(textsafe.Text(m.err.Error())),
			"",
			st.Muted.Render("Press any key to quit."),
		)
	}
	done, total := m.read.done.Load(), m.read.total.Load()
	status, bar := "reading…", ""
	switch {
	case m.read.waiting.Load():
		status = "following; waiting for the first trajectory…"
		if said := m.read.unended.Load(); said != nil {
			for _, w := range *said {
				status += "\nwarning: " + textsafe.Line(w)
			}
		}
	case total == 0 && done > 0: // a stream of unknown length
		status = fmt.Sprintf("read %s", formatBytes(done))
	case total > 0 && done >= total:
		status = fmt.Sprintf("read %s; scoring and ranking…", formatBytes(done))
		bar = m.bar.ViewAs(1)
	case total > 0:
		status = fmt.Sprintf("read %s of %s", formatBytes(done), formatBytes(total))
		bar = m.bar.ViewAs(float64(done) / float64(total))
	}
	return lipgloss.JoinVertical(lipgloss.Left,
		st.Title.Render("rewardlens"),
		"Loading "+source+"…",
		"",
		bar,
		st.Muted.Render(status),
		"",
		st.Muted.Render("q quits · tab and method keys apply once it opens"),
	)
}

// formatBytes writes n in B, KiB, MiB or GiB.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
