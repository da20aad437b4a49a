// Package uitest is what the tests of the dashboard's packages share: the
// sessions they open (the sample, a synthetic run, JSONL text), a tab set
// up as the root model sets it up, keys pressed on it, and the switches of
// the options they check a tab against. Only tests import it.
package uitest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"

	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/session"
)

// SampleSession returns a session on the embedded sample experiment,
// opened with its config (sample_data/experiment.toml) the way Run opens
// it: objectives inferred, skipped lines and invalid rows as warnings.
func SampleSession(tb testing.TB) *session.Session {
	tb.Helper()
	return SampleSessionWith(tb, func(*setup.Config) {})
}

// SampleSessionWith is SampleSession with the sample's config changed by
// change first (constraints, gates, a normalisation).
func SampleSessionWith(tb testing.TB, change func(*setup.Config)) *session.Session {
	tb.Helper()
	cfg, res := sampletest.Read(tb)
	change(&cfg)
	s, err := session.Open("sample", cfg, res, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// SyntheticSession returns a session on n trajectories of one batch, in
// groups of 8, with three objectives drawn uniformly (the pareto computer
// infers them from the metadata).
func SyntheticSession(tb testing.TB, n int) *session.Session {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = scoring.Trajectory{
			ID:    fmt.Sprint(i),
			Group: fmt.Sprintf("p%d", i/8),
			Done:  true,
			Metadata: map[string]any{
				"accuracy": float64(rng.IntN(2)),
				"safety":   rng.Float64(),
				"length":   float64(100 + rng.IntN(900)),
			},
		}
	}
	s, err := session.Open("synthetic", setup.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TextSession opens a session on text, JSONL records, with objectives a
// and b (metadata.a, metadata.b) and method grpo.
func TextSession(t testing.TB, text string) *session.Session {
	t.Helper()
	return TextSessionWith(t, text, textConfig())
}

// textConfig is the config of TextSession: grpo on objectives a and b,
// the records' metadata.a and metadata.b.
func textConfig() setup.Config {
	return setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}}}
}

// TextSessionWith opens a session on text, JSONL records read as
// run.jsonl, with cfg.
func TextSessionWith(t testing.TB, text string, cfg setup.Config) *session.Session {
	t.Helper()
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FollowedTextSession is TextSession for a run to be followed: opened as
// the dashboard opens one (FollowedSession).
func FollowedTextSession(t testing.TB, text string) *session.Session {
	t.Helper()
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return FollowedSession(t, "run.jsonl", textConfig(), res)
}

// FollowedSession opens a session named source on what res read, with
// cfg, as the dashboard opens a run it follows (session.Builder.Follow:
// its IDs noted for the updates' repeats).
func FollowedSession(t testing.TB, source string, cfg setup.Config, res *loaders.Result) *session.Session {
	t.Helper()
	b := session.NewBuilder(cfg, false)
	b.Follow()
	if err := b.Add(res.Trajectories); err != nil {
		t.Fatal(err)
	}
	return b.Session(source, res, nil)
}

// SampleTab returns the tab newTab builds on the sample session, set up
// as the root model sets it up at 120x40, without colour.
func SampleTab(tb testing.TB, newTab func(*common.Common) common.Tab) (common.Tab, *session.Session) {
	tb.Helper()
	s := SampleSession(tb)
	return TabOn(s, newTab), s
}

// TabOn returns the tab newTab builds on s, set up as the root model sets
// it up at 120x40, without colour.
func TabOn(s *session.Session, newTab func(*common.Common) common.Tab) common.Tab {
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	tab := newTab(c)
	tab.SetSize(120, 40)
	Refresh(tab, s)
	return tab
}

// Refresh tells tab that s changed, as the root does: the health and
// method B's result (when the tab shows it) computed first, then the
// tab's jobs run and their messages handed back (see Jobs).
func Refresh(tab common.Tab, s *session.Session) {
	if !s.HealthReady() {
		j := s.HealthJob()
		j.Run()
		s.HealthDone(j)
	}
	if c, ok := tab.(common.Comparer); ok && c.ShowsCompare() {
		if b, ok := s.CompareNeeded(s.Result.Options); ok {
			s.SetCompare(s.Evaluation.Compute(b))
		}
	}
	tab.Update(common.SessionChangedMsg{})
	Jobs(tab)
}

// Jobs runs the jobs tab asks for (common.Worker), on the calling
// goroutine, and hands it their messages, as the root does off the event
// loop; it returns the commands the tab returned for them.
func Jobs(tab common.Tab) []tea.Cmd {
	w, ok := tab.(common.Worker)
	if !ok {
		return nil
	}
	var cmds []tea.Cmd
	for job := w.Job(); job != nil; job = w.Job() {
		_, cmd := tab.Update(job())
		cmds = append(cmds, cmd)
	}
	return cmds
}

// namedKeys are the keys KeyPress knows by name, as tea.KeyPressMsg.String
// names them.
var namedKeys = map[string]tea.KeyPressMsg{
	"down": {Code: tea.KeyDown}, "up": {Code: tea.KeyUp}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
	"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown}, "home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd},
	"backspace": {Code: tea.KeyBackspace}, "space": {Code: tea.KeySpace, Text: " "}, "esc": {Code: tea.KeyEscape},
	"enter": {Code: tea.KeyEnter}, "tab": {Code: tea.KeyTab}, "shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"ctrl+c": {Code: 'c', Mod: tea.ModCtrl}, "ctrl+s": {Code: 's', Mod: tea.ModCtrl},
}

// KeyPress returns the message of a key named as tea.KeyPressMsg.String
// names it: a named key, or the text of a rune.
func KeyPress(k string) tea.KeyPressMsg {
	if msg, ok := namedKeys[k]; ok {
		return msg
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// PressKeys sends the keys to tab and returns the commands it asked for.
func PressKeys(tab common.Tab, keys ...string) []tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range keys {
		if _, cmd := tab.Update(KeyPress(k)); cmd != nil {
			cmds = append(cmds, cmd)
		}
		Jobs(tab)
	}
	return cmds
}

// ShowBatch makes batch bi the session's current one, as [ and ] do.
func ShowBatch(tab common.Tab, s *session.Session, bi int) {
	s.SetBatch(bi)
	Refresh(tab, s)
}

// Plain returns what tab shows, without the bold and reverse video of
// the no-colour styles.
func Plain(tab common.Tab) string { return ansi.Strip(tab.View()) }

// OptionChange is a switch of the session's options, named for a failure
// message.
type OptionChange struct {
	Name string
	Set  func(o *engine.Options)
}

// Switches the tests make: to a method, to the other scope, and of the
// first objective's weight, times 40.
func MethodChange(m engine.Method) OptionChange {
	return OptionChange{"method " + string(m), func(o *engine.Options) { o.Method = m }}
}

func ScopeChange(scope engine.Scope) OptionChange {
	return OptionChange{"scope " + string(scope), func(o *engine.Options) { o.Scope = scope }}
}

var WeightChange = OptionChange{"weights", func(o *engine.Options) {
	o.Weights = append([]float64{o.Weights[0] * 40}, o.Weights[1:]...)
}}

// EveryMethod is a switch to each method in turn.
func EveryMethod() []OptionChange {
	var changes []OptionChange
	for _, m := range engine.Methods {
		changes = append(changes, MethodChange(m))
	}
	return changes
}

// SwitchOptions makes change on s (its weights made explicit first) and
// shows the recomputed result on tab, as the root model does; it returns
// the tab newTab builds on a session that open returns, opened on the
// options s now has: what tab must show.
func SwitchOptions(t *testing.T, tab common.Tab, s *session.Session, change OptionChange,
	open func(testing.TB) *session.Session, newTab func(*common.Common) common.Tab) common.Tab {
	t.Helper()
	s.Options.Weights = s.Weights()
	change.Set(&s.Options)
	s.Recompute()
	Refresh(tab, s)
	opened := open(t)
	opened.Options = s.Options
	opened.Recompute()
	return TabOn(opened, newTab)
}

// NoDefaultTaskSession returns a session on a run of a math source
// (accuracy, length) and a chat source (safety), sources in name order:
// chat's safety comes first, and math lacks it, so there is no default
// task metric and the Prompts tab lists nothing.
func NoDefaultTaskSession(t testing.TB) *session.Session {
	t.Helper()
	var text strings.Builder
	for step := range 2 {
		for c := range 4 {
			fmt.Fprintf(&text, `{"id":"m%d-%d","batch":%d,"group":"math","metadata":{"task":"math","accuracy":%d,"length":%d}}`+"\n", step, c, step, c%2, 100+c)
			fmt.Fprintf(&text, `{"id":"c%d-%d","batch":%d,"group":"chat","metadata":{"task":"chat","safety":%d}}`+"\n", step, c, step, c%2)
		}
	}
	objective := func(name string) setup.ObjectiveConfig {
		return setup.ObjectiveConfig{Name: name, Expr: "metadata." + name}
	}
	s := TextSessionWith(t, text.String(), setup.Config{
		Method:   "grpo",
		SourceBy: "metadata.task",
		Sources: map[string]setup.SourceConfig{
			"math": {Objectives: []setup.ObjectiveConfig{objective("accuracy"), objective("length")}},
			"chat": {Objectives: []setup.ObjectiveConfig{objective("safety")}},
		},
	})
	if s.Prompts != nil || s.PromptsErr == nil {
		t.Fatalf("prompts %v, error %v: the test wants none, and why", s.Prompts, s.PromptsErr)
	}
	return s
}

// FileSessionWith opens a session under cfg on text, JSONL records,
// written to a file and loaded as the dashboard loads files: the
// trajectories kept lean, their bodies read again from the file.
func FileSessionWith(t testing.TB, text string, cfg setup.Config) *session.Session {
	t.Helper()
	return fileSessionAt(t, filepath.Join(t.TempDir(), "run.jsonl"), text, cfg)
}

// FileSessionHere is FileSessionWith on run.jsonl in a new working
// directory (t.Chdir, so the test must not be parallel): a message names
// the file run.jsonl in every run, as a golden file needs. Its testdata
// links to the package's, where the golden files are.
func FileSessionHere(t testing.TB, text string, cfg setup.Config) *session.Session {
	t.Helper()
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.Symlink(testdata, "testdata"); err != nil {
		t.Fatal(err)
	}
	return fileSessionAt(t, "run.jsonl", text, cfg)
}

// fileSessionAt is FileSessionWith on the file path.
func fileSessionAt(t testing.TB, path, text string, cfg setup.Config) *session.Session {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(path, cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FilesSession is FileSessionWith on several files, texts[k] written to
// the k-th, in a new directory; it returns their paths, in input order.
func FilesSession(t testing.TB, texts []string, cfg setup.Config) (*session.Session, []string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for k, text := range texts {
		path := filepath.Join(dir, fmt.Sprintf("run%d.jsonl", k))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	res, err := loaders.Load(paths, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(paths[0], cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, paths
}

// Reload writes text to path, one of s's files, and applies it to s as
// follow mode does a file read again (Session.ApplyUpdate): its
// trajectories replaced, after the others, and Reloads counted. The
// tabs have not heard of it.
func Reload(t testing.TB, s *session.Session, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := live.NewOf(s.Computer.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	s.ApplyUpdate(l, loaders.Update{Reloaded: []string{path}, Trajectories: res.Trajectories})
}

// ReloadFiles are two files of one batch whose trajectories a session
// keeps lean, for ReloadCases: a0, a1, a2 in the first (indices 0 to 2),
// b0 and b1 in the second (3 and 4). Each response is "answer " and its
// id.
var ReloadFiles = []string{
	reloadRows("a0", "a1", "a2"),
	reloadRows("b0", "b1"),
}

// A ReloadCase is a file of ReloadFiles read again (Reload) while
// trajectory Open is open (its read under way) or selected: File read
// again with the trajectories of ids Text. Want is the id open or
// selected after, "" when the run holds it no more.
type ReloadCase struct {
	Name       string
	Open, File int
	Text       string
	Want       string
}

// ReloadCases are the ways a trajectory open or selected moves or goes
// when a file is read again: a file before it shorter (another trajectory
// at its index, or none), its own file longer (the other file's rows then
// come before it), its own file without it.
var ReloadCases = []ReloadCase{
	{Name: "rows come before it", Open: 1, File: 0, Text: reloadRows("a0", "a1", "a2", "a3"), Want: "a1"},
	{Name: "same file read again", Open: 1, File: 0, Text: reloadRows("a0", "a1", "a2"), Want: "a1"},
	{Name: "another at its index", Open: 3, File: 0, Text: reloadRows("a0", "a1"), Want: "b0"},
	{Name: "past the end", Open: 4, File: 0, Text: reloadRows("a0"), Want: "b1"},
	{Name: "gone", Open: 3, File: 1, Text: reloadRows("b9"), Want: ""},
}

// reloadRows are JSONL records of batch 0 with the ids given, their
// objectives a and b apart.
func reloadRows(ids ...string) string {
	var b strings.Builder
	for k, id := range ids {
		fmt.Fprintf(&b, `{"id":%q,"batch":0,"group":"g","response":"answer %s","metadata":{"a":%d,"b":%d}}`+"\n", id, id, len(id)*k+int(id[0]), 10-k)
	}
	return b.String()
}

// ReloadReads runs ReloadCases on the tab newTab builds, on a run of
// ReloadFiles: open opens trajectory i of its session, and open reports
// whether it has a trajectory open and that trajectory's id. The tab
// shows c.Want's trajectory after the reload, read again, never another
// at its index (nor past the end of the run), or has it closed and says
// so (a NoticeMsg), whether the reload changed the session while the tab
// was shown (the read under way dropped) or hidden (the read landing
// first).
func ReloadReads(t *testing.T, newTab func(*common.Common) common.Tab, open func(tab common.Tab, i int), opened func(tab common.Tab) (reading bool, id string)) {
	for _, c := range ReloadCases {
		for _, hidden := range []bool{false, true} {
			name := c.Name + "/shown"
			if hidden {
				name = c.Name + "/hidden"
			}
			t.Run(name, func(t *testing.T) {
				s, paths := FilesSession(t, ReloadFiles, setup.Config{})
				tab := TabOn(s, newTab)
				open(tab, c.Open)
				read := tab.(common.Worker).Job()
				if read == nil {
					t.Fatal("no read of the trajectory opened")
				}
				if hidden {
					tab.Update(common.HiddenMsg{})
				}
				Reload(t, s, paths[c.File], c.Text)
				var cmds []tea.Cmd // the tab's, the notice among them
				if !hidden {
					_, cmd := tab.Update(common.SessionChangedMsg{})
					cmds = append(cmds, cmd)
				}
				_, cmd := tab.Update(read())
				cmds = append(cmds, cmd)
				cmds = append(cmds, Jobs(tab)...)
				reading, id := opened(tab)
				CheckReloaded(t, c, reading, id, cmds)
				Refresh(tab, s)
				v := Plain(tab)
				if c.Want != "" && !strings.Contains(v, "answer "+c.Want) {
					t.Errorf("the tab shown does not show %s's response:\n%s", c.Want, v)
				}
				if c.Want == "" && strings.Contains(v, "answer ") {
					t.Errorf("the tab shown shows a trajectory:\n%s", v)
				}
			})
		}
	}
}

// SelectionFollowsAReload runs ReloadCases on the tab newTab builds,
// on a run of ReloadFiles: choose selects trajectory i of its session
// with the tab's keys, and selected returns the index of the trajectory
// selected, -1 for none. After the reload and the tab's refresh (its jobs
// run and their messages handed back), the same trajectory is selected,
// never another at its index, and nothing is said; one the run holds no
// more leaves a trajectory of the run selected, or none, the tab shows
// the gone one nowhere, and one notice, from the refresh or a job's
// message, says it is gone by its id: the selection never lands on
// another trajectory unsaid.
func SelectionFollowsAReload(t *testing.T, newTab func(*common.Common) common.Tab, choose func(tab common.Tab, i int), selected func(tab common.Tab) int) {
	for _, c := range ReloadCases {
		t.Run(c.Name, func(t *testing.T) {
			s, paths := FilesSession(t, ReloadFiles, setup.Config{})
			tab := TabOn(s, newTab)
			choose(tab, c.Open)
			if i := selected(tab); i != c.Open {
				t.Fatalf("chose %d, %d selected", c.Open, i)
			}
			chosen := s.Trajectories.At(c.Open).ID
			Reload(t, s, paths[c.File], c.Text)
			_, cmd := tab.Update(common.SessionChangedMsg{})
			notices := Notices(append([]tea.Cmd{cmd}, Jobs(tab)...))
			i := selected(tab)
			id := ""
			if i >= 0 && i < s.Trajectories.Len() {
				id = s.Trajectories.At(i).ID
			}
			if c.Want != "" {
				if id != c.Want {
					t.Errorf("%d (%q) selected, want %s", i, id, c.Want)
				}
				if len(notices) > 0 {
					t.Errorf("the reload said %q", notices)
				}
				return
			}
			if i >= s.Trajectories.Len() {
				t.Errorf("%d selected, past the run's %d trajectories", i, s.Trajectories.Len())
			}
			if v := Plain(tab); strings.Contains(v, chosen) {
				t.Errorf("the tab shows %s, gone from the run:\n%s", chosen, v)
			}
			if len(notices) != 1 || !strings.Contains(notices[0], chosen) || !strings.Contains(notices[0], "gone") {
				t.Errorf("%d (%q) selected, and the notices %q: want one that says %q is gone", i, id, notices, chosen)
			}
		})
	}
}

// Notices returns the texts of the notices (common.NoticeMsg) cmds ask
// for, those of a tea.Batch among them, in order.
func Notices(cmds []tea.Cmd) []string {
	var texts []string
	for _, cmd := range cmds {
		if cmd == nil {
			continue
		}
		switch msg := cmd().(type) {
		case common.NoticeMsg:
			texts = append(texts, msg.Text)
		case tea.BatchMsg:
			texts = append(texts, Notices(msg)...)
		}
	}
	return texts
}

// CheckReloaded checks what a tab has open after c (reading, the
// trajectory of id): c.Want's trajectory, and nothing said; or none and
// one notice among cmds, the tab's commands, that says it closed.
func CheckReloaded(t *testing.T, c ReloadCase, reading bool, id string, cmds []tea.Cmd) {
	t.Helper()
	notices := Notices(cmds)
	if c.Want != "" {
		if !reading || id != c.Want {
			t.Errorf("open %v, trajectory %q, want %q", reading, id, c.Want)
		}
		if len(notices) > 0 {
			t.Errorf("the reload said %q", notices)
		}
		return
	}
	if reading {
		t.Errorf("trajectory %q open, want it closed: the run holds it no more", id)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "closed") {
		t.Errorf("notices %q, want one that says the trajectory closed", notices)
	}
}

// LeanRun is a run whose trajectories a session of it (FileSessionWith)
// keeps lean: their responses are read again from the file when opened.
const LeanRun = `{"id":"c0","batch":0,"group":"g","response":"the whole answer 0","metadata":{"a":1,"b":0}}
{"id":"c1","batch":0,"group":"g","response":"the whole answer 1","metadata":{"a":0,"b":1}}
{"id":"c2","batch":0,"group":"g","response":"the whole answer 2","metadata":{"a":0.5,"b":0.5}}
`

// ReadsOffTheLoop checks a tab that opens its selected trajectory with
// enter, on a session of LeanRun: it says the trajectory is being read
// until the tab's job (common.Worker) lands with its response; esc drops
// the read (not handed out, it is not run; handed out, what it read is not
// shown once another is opened); a read that fails says where,
// FILE:LINE. opened is the index of the trajectory the tab opened.
func ReadsOffTheLoop(t *testing.T, newTab func(*common.Common) common.Tab, opened func(tab common.Tab) int) {
	t.Helper()
	s := FileSessionWith(t, LeanRun, setup.Config{})
	tab := TabOn(s, newTab)
	job := func() func() tea.Msg { return tab.(common.Worker).Job() }
	tab.Update(KeyPress("enter"))
	if v := Plain(tab); strings.Contains(v, "the whole answer") || !strings.Contains(v, trajectory.ReadingText) {
		t.Fatalf("the trajectory was read on the event loop:\n%s", v)
	}
	tab.Update(KeyPress("esc"))
	if job() != nil {
		t.Errorf("the read of a trajectory closed before it ran is still handed out")
	}
	tab.Update(KeyPress("enter"))
	first := job()
	if first == nil {
		t.Fatal("opening a lean trajectory hands out no read")
	}
	tab.Update(KeyPress("esc"))
	tab.Update(KeyPress("enter"))
	second := job()
	tab.Update(first())
	if v := Plain(tab); strings.Contains(v, "the whole answer") || !strings.Contains(v, trajectory.ReadingText) {
		t.Errorf("the read of a trajectory closed since is shown:\n%s", v)
	}
	tab.Update(second())
	want := "the whole answer " + strings.TrimPrefix(s.Trajectories.At(opened(tab)).ID, "c")
	if v := Plain(tab); !strings.Contains(v, want) || strings.Contains(v, trajectory.ReadingText) {
		t.Errorf("the trajectory, read, does not show its response %q:\n%s", want, v)
	}
	// The file emptied since the load: the read fails, and says where.
	tab.Update(KeyPress("esc"))
	path := s.Trajectories.At(0).Source
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	PressKeys(tab, "enter")
	said := regexp.MustCompile(regexp.QuoteMeta(path) + `:\d+: trajectory "c\d" changed since it was loaded`)
	if v := Plain(tab); !said.MatchString(strings.Join(strings.Fields(v), " ")) || strings.Contains(v, trajectory.ReadingText) {
		t.Errorf("a read that failed does not say where, FILE:LINE:\n%s", v)
	}
}

// DroppedRun is a batch of two groups, one invalid trajectory in z; the
// group filter on a drops group x (a the same throughout), keeps z.
const DroppedRun = `{"id":"x0","group":"x","batch":0,"metadata":{"a":1,"b":1}}
{"id":"x1","group":"x","batch":0,"metadata":{"a":1,"b":2}}
{"id":"z0","group":"z","batch":0,"metadata":{"a":0,"b":1}}
{"id":"z1","group":"z","batch":0,"metadata":{"a":1,"b":4}}
{"id":"z2","group":"z","batch":0,"metadata":{"a":2}}
`

// DroppedAndEmptyRun is four groups of two: the group filter on a drops
// x and z (zero spread of a), keeps y; w has no valid a.
const DroppedAndEmptyRun = `{"id":"x0","group":"x","metadata":{"a":1,"b":1}}
{"id":"x1","group":"x","metadata":{"a":1,"b":2}}
{"id":"y0","group":"y","metadata":{"a":1,"b":3}}
{"id":"y1","group":"y","metadata":{"a":0,"b":5}}
{"id":"z0","group":"z","metadata":{"a":0,"b":1}}
{"id":"z1","group":"z","metadata":{"a":0,"b":4}}
{"id":"w0","group":"w","metadata":{"b":1}}
{"id":"w1","group":"w","metadata":{"b":2}}
`

// FilteredSession is a session of text (TextSession) with the group
// filter on objective a.
func FilteredSession(t testing.TB, text string) *session.Session {
	t.Helper()
	s := TextSession(t, text)
	if err := s.SetFilterGroups("a"); err != nil {
		t.Fatal(err)
	}
	return s
}
