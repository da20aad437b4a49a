package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/statusline"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestStreamSessionUnfinished: the dashboard opened on a live run's
// directory (as cmd opens it: loaders.Stream) shows what is complete and
// says in its status line which newest file it left out, and why.
func TestStreamSessionUnfinished(t *testing.T) {
	dir := filepath.Join("..", "loaders", "testdata", "live", "parquet")
	app := loadModel(t, Input{Source: dir, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
		return loaders.Stream([]string{dir}, loaders.Options{Pick: hooks.Pick, Progress: hooks.Progress}, hooks.Each)
	}}, 400)
	want := filepath.Join(dir, "completions_00003.parquet") + ": left out: no Parquet footer yet"
	if n := app.Session().Trajectories.Len(); n != 24 {
		t.Errorf("%d trajectories, want the 24 of the two complete files", n)
	}
	if view := screen(app); !strings.Contains(view, want) {
		t.Errorf("no %q in the status line:\n%s", want, view)
	}
}

// TestLiveUnfinishedRead: following, the warning of a file the first
// reading left out stays until an update brings its trajectories.
func TestLiveUnfinishedRead(t *testing.T) {
	cfg, ts := sampleSteps(t, 0, 5)
	_, later := sampleSteps(t, 5, 6)
	const path = "completions_00006.parquet"
	for i := range later {
		later[i].Source = path
	}
	uf := loaders.Unfinished{Path: path, Whole: true, Reason: "no Parquet footer yet", Followed: true}
	s := uitest.FollowedSession(t, "run", cfg, &loaders.Result{Trajectories: ts, Unfinished: []loaders.Unfinished{uf}})
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 40})
	want := uf.String()
	m.Update(liveMsg{loaders.Update{Reloaded: []string{path}}, true}) // changed, still no footer
	if !slices.Contains(m.Session().Warnings, want) {
		t.Fatalf("warnings %q, want %q", m.Session().Warnings, want)
	}
	m.Update(liveMsg{loaders.Update{Trajectories: later, Reloaded: []string{path}}, true})
	if slices.Contains(m.Session().Warnings, want) || strings.Contains(screen(m), "no Parquet footer yet") {
		t.Errorf("the file was read, but its warning stays: %q", m.Session().Warnings)
	}
}

// TestStreamSessionLineLeftOut: the dashboard opened on open-instruct
// traces whose file's last line is unfinished, left out, shortening the
// last group of its step: the logged-advantage warning leaves that step
// out of the fit, naming that line, as stats does, not a regrouping by
// the trainer.
func TestStreamSessionLineLeftOut(t *testing.T) {
	var text []byte
	for _, shard := range []string{"000000", "000001"} {
		b, err := os.ReadFile(filepath.Join("..", "cmd", "testdata", "openinstruct", "centered", "grpo_gsm8k__1__1764150000_rollouts_"+shard+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		text = append(text, b...)
	}
	// The last line cut in its middle, as a run still writing it leaves it.
	last := bytes.LastIndexByte(text[:len(text)-1], '\n') + 1
	text = text[:last+(len(text)-last)/2]
	dir := t.TempDir()
	path := filepath.Join(dir, "run_rollouts_000000.jsonl")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, sentence, _, err := layouts.Apply(context.Background(), setup.Config{}, []string{dir}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	app := loadModel(t, streamedInput(t, cfg, sentence, dir), 120)
	got := app.Session().LoggedWarning()
	want := "step 2 left out of the fit, its run probably still writing it (" + path + "'s unfinished last line left out; 3 of 11 rows differ"
	if !strings.Contains(got, want) || strings.Contains(got, "which the trainer grouped otherwise") {
		t.Errorf("the logged-advantage warning lacks %q: %s", want, got)
	}
}

// TestStreamSessionJSONCutShort: the dashboard opened on a directory whose
// newest JSON array is cut short (its run still writing it) opens on the
// complete files and says in its status line which file it left out, and
// why.
func TestStreamSessionJSONCutShort(t *testing.T) {
	dir := filepath.Join("..", "loaders", "testdata", "live", "json")
	app := loadModel(t, Input{Source: dir, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
		return loaders.Stream([]string{dir}, loaders.Options{Pick: hooks.Pick, Progress: hooks.Progress}, hooks.Each)
	}}, 400)
	want := filepath.Join(dir, "step_2.json") + ": left out: its JSON ends before its value does"
	if n := app.Session().Trajectories.Len(); n != 2 {
		t.Errorf("%d trajectories, want the 2 of the complete file", n)
	}
	if view := screen(app); !strings.Contains(view, want) {
		t.Errorf("no %q in the status line:\n%s", want, view)
	}
}

// TestFollowSessionJSONCutShort: the dashboard following a directory whose
// newest JSON array is cut short opens on the complete files, the cut one
// named in its status line, and reads that one once its writer completes
// it, its warning gone.
func TestFollowSessionJSONCutShort(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "step_1.json"), []byte(`[{"id":"1a","metadata":{"acc":1}},{"id":"1b","metadata":{"acc":0}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	const whole = `[{"id":"2a","metadata":{"acc":1}},{"id":"2b","metadata":{"acc":0}}]`
	const cutAt = 40
	path := filepath.Join(dir, "step_2.json")
	if err := os.WriteFile(path, []byte(whole[:cutAt]), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := Input{Source: dir, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		opts := loaders.Options{Pick: hooks.Pick}
		return loaders.Follow(ctx, []string{dir}, loaders.FollowOptions{Options: opts, Poll: 10 * time.Millisecond, Each: hooks.Each})
	}}
	app := loadModel(t, in, 400)
	const why = ": left out: its JSON ends before its value does"
	if n := app.Session().Trajectories.Len(); n != 2 {
		t.Errorf("%d trajectories, want the 2 of the complete file", n)
	}
	if view := screen(app); !strings.Contains(view, path+why) {
		t.Errorf("no %q in the status line:\n%s", path+why, view)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(whole[cutAt:])
	f.Close()
	for app.Session().Trajectories.Len() < 4 {
		app.Update(app.live.wait()())
	}
	if view := screen(app); strings.Contains(view, why) {
		t.Errorf("the file was read, but its warning stays:\n%s", view)
	}
	cancel()
	for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
	}
}

// TestStepStillWrittenProvisional: the dashboard opened on a directory
// whose newest file ends in an unfinished line grades that step
// provisionally, as stats --health does: its ALERT listed on the Steps
// tab marked provisional, with why under ?, and counted at WARN by the
// header's badge; the same rows in a file that ends raise the ALERT.
func TestStepStillWrittenProvisional(t *testing.T) {
	open := func(dir string) *Model {
		cfg, sentence, _, err := layouts.Apply(context.Background(), setup.Config{}, []string{dir}, loaders.Options{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		app := loadModel(t, streamedInput(t, cfg, sentence, dir), 160)
		press(app, "6")
		settle(app)
		return app
	}
	cut := t.TempDir()
	testfile.VerlSteps(t, cut, true)
	app := open(cut)
	why := filepath.Join(cut, "5.jsonl") + " ends in an unfinished line, left out: its run is probably still writing it"
	var provisional int
	for _, f := range app.Session().Findings() {
		if f.Step == 5 && f.Provisional == why {
			provisional++
		}
	}
	if provisional == 0 {
		t.Fatalf("no finding of step 5 marked provisional %q: %+v", why, app.Session().Findings())
	}
	view := screen(app)
	header := strings.Split(view, "\n")[0]
	if strings.Contains(header, "alert") || strings.Contains(header, "✖") {
		t.Errorf("the header's badge counts a provisional ALERT as an ALERT: %q", header)
	}
	if !strings.Contains(view, "step 5 phantom_signal (provisional):") {
		t.Errorf("the Steps tab does not mark step 5's ALERT provisional:\n%s", view)
	}
	if texts := app.findingTexts(); !slices.ContainsFunc(texts, func(s string) bool { return strings.HasSuffix(s, "; provisional: "+why) }) {
		t.Errorf("? does not say why step 5's findings are provisional: %q", texts)
	}

	ended := t.TempDir()
	testfile.VerlSteps(t, ended, false)
	text, err := os.ReadFile(filepath.Join(cut, "5.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ended, "5.jsonl"), text[:bytes.LastIndexByte(text, '\n')+1], 0o644); err != nil {
		t.Fatal(err)
	}
	if header := strings.Split(screen(open(ended)), "\n")[0]; !strings.Contains(header, "alert") {
		t.Errorf("the same rows in a file that ends: no ALERT in the header's badge: %q", header)
	}
}

// TestLiveStillWrittenSettles: following, the findings of the step whose
// file the first reading left unfinished are provisional until an update
// brings that file's rest: the health the update computes then grades
// the step whole, its finding (a NaN score in the rest) standing.
func TestLiveStillWrittenSettles(t *testing.T) {
	cut, whole := t.TempDir(), t.TempDir()
	testfile.VerlSteps(t, cut, true)
	testfile.VerlSteps(t, whole, false)
	// A NaN score in step 5's rest: a finding of the step whole, which
	// must not stay marked provisional.
	testfile.ReplaceFirst(t, filepath.Join(whole, "5.jsonl"), `"score":0.2,`, `"score":NaN,`)
	cfg, _, _, err := layouts.Apply(context.Background(), setup.Config{}, []string{cut}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fields, err := scoring.NewRecordFields(cfg.GroupBy, cfg.BatchBy, cfg.IDBy)
	if err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{cut}, loaders.Options{Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	all, err := loaders.Load([]string{whole}, loaders.Options{Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cut, "5.jsonl")
	rest := all.Trajectories[len(res.Trajectories):] // step 5's rows after those read
	for i := range rest {
		rest[i].Source = path
	}
	s := uitest.FollowedSession(t, cut, cfg, res)
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	runHealth(s)
	provisional := func() int {
		n := 0
		for _, f := range s.Findings() {
			if f.Provisional != "" {
				n++
			}
		}
		return n
	}
	if provisional() == 0 {
		t.Fatalf("no finding provisional while %s is unfinished: %+v", path, s.Findings())
	}
	// The health known, the update computes the new result's at once.
	m.Update(liveMsg{loaders.Update{Trajectories: rest}, true})
	if !s.HealthReady() {
		t.Fatal("the update did not compute its result's health")
	}
	if n := provisional(); n > 0 || !slices.ContainsFunc(s.Findings(), func(f health.Finding) bool { return f.Check == health.CheckNonFinite && f.Step == 5 }) {
		t.Errorf("step 5 whole: %d findings provisional, findings %+v, want non_finite's at step 5 standing", n, s.Findings())
	}
}

// TestMatchLoggedLeavesOutTheStepStillWritten: the dashboard opened with
// --match-logged on a TRL table whose step 2 file ends in an unfinished
// line (cmd/testdata/trl_partial) computes with the settings fitted on
// step 1 (scale batch), as stats does, and its status line says step 2
// was left out of the fit and why: step 2's short group made no setting
// reproduce every step, and the dashboard opened on the settings given.
func TestMatchLoggedLeavesOutTheStepStillWritten(t *testing.T) {
	dir := filepath.Join("..", "cmd", "testdata", "trl_partial", "completions")
	match := true
	cfg, sentence, _, err := layouts.Apply(context.Background(), setup.Config{MatchLogged: &match}, []string{dir}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := streamedInput(t, cfg, sentence, dir)
	in.LayoutWarnings = func(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
		return layouts.StepWarnings(cfg, rowCap, linesLeftOut) // as cmd gives it
	}
	s := loadModel(t, in, 120).Session()
	if s.Options.Scale != engine.ScaleBatch {
		t.Errorf("computing with scale %s, want batch; warnings %q", s.Options.Scale, s.Warnings)
	}
	said := "step 2 left out of the fit, its run probably still writing it (" + filepath.Join(dir, "completions_00002.jsonl") + "'s unfinished last line left out)"
	if !slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.Contains(w, said) }) {
		t.Errorf("the status line lacks %q: %q", said, s.Warnings)
	}
	// The group the unfinished line cut is said as that, not as
	// evaluation rows TRL logged in the table.
	cutGroup := `step 2: its last group read, …"Is 91 prime?<|im_end|>\n<|im_start|>assis"… (3 of 4 rows), is short of the row the reading left out after it (` + filepath.Join(dir, "completions_00002.jsonl") + "'s unfinished last line)"
	var l statusline.Line
	l.Refresh(s)
	if got := l.View(common.NewStyles(true, true), 4000); !strings.Contains(got, cutGroup) || strings.Contains(got, "evaluation rows") {
		t.Errorf("the status line %q lacks %q, or names evaluation rows", got, cutGroup)
	}
}

// TestFollowMatchLoggedLeavesOutTheStepStillWritten: so too when the
// dashboard follows the table: the step 2 file's last line, without its
// line end from the first reading, leaves step 2 out of the fit the
// dashboard opens computed with.
func TestFollowMatchLoggedLeavesOutTheStepStillWritten(t *testing.T) {
	dir := filepath.Join("..", "cmd", "testdata", "trl_partial", "completions")
	match := true
	cfg, sentence, _, err := layouts.Apply(context.Background(), setup.Config{MatchLogged: &match}, []string{dir}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := followInput(ctx, dir, loaders.Options{})
	in.Config, in.Layout = cfg, sentence
	s, _, _, err := in.followedSession(func(int64, int64) {}, func([]loaders.Unended) {})
	if err != nil {
		t.Fatal(err)
	}
	if s.Options.Scale != engine.ScaleBatch {
		t.Errorf("computing with scale %s, want batch; warnings %q", s.Options.Scale, s.Warnings)
	}
}
