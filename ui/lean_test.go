package ui

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// wholeTrajectories returns the session's trajectories, those it keeps
// lean read again from their files.
func wholeTrajectories(tb testing.TB, s *session.Session) []scoring.Trajectory {
	tb.Helper()
	out := s.Trajectories.Slice()
	for i := range out {
		if out[i].Lean {
			full, err := loaders.Reread(&out[i], nil)
			if err != nil {
				tb.Fatal(err)
			}
			out[i] = full
		}
	}
	return out
}

// leanLines returns n JSONL lines in batches of 16 and groups of 4, from
// the first, whose responses name their trajectory and hold an escape
// sequence; id renames the trajectories.
func leanLines(first, n int, id string) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, `{"id":"%s%d","batch":%d,"group":"g%d","response":"response of %s%d \u001b[31mred","metadata":{"accuracy":%g,"safety":%g,"note":"n%d"}}`+"\n",
			id, i, i/16, i/4, id, i, float64(i%5)/4, float64(i%7)/6, i)
	}
	return b.String()
}

// writeLeanFile writes text to run.jsonl in a new directory.
func writeLeanFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadModel runs the loading screen on in, at width x 40, and returns the
// dashboard it opens.
func loadModel(t *testing.T, in Input, width int) *Model {
	t.Helper()
	lm := newLoadingModel(in, true)
	lm.Update(tea.WindowSizeMsg{Width: width, Height: 40})
	next, _ := lm.Update(lm.load())
	app, ok := next.(*Model)
	if !ok {
		t.Fatalf("the load gave %T: %v", next, lm.err)
	}
	return app
}

// checkLean fails t unless every trajectory of s is lean.
func checkLean(t *testing.T, s *session.Session) {
	t.Helper()
	for _, tr := range s.Trajectories.All() {
		if !tr.Lean || tr.Metadata != nil || tr.Response != nil {
			t.Fatalf("%s is kept whole", tr.Where())
		}
	}
}

// openedResponse and openedID find the opened trajectory's response, its
// escape sequence shown as text, and its id.
var (
	openedResponse = regexp.MustCompile(`response of (t\d+) \\x1b\[31mred`)
	openedID       = regexp.MustCompile(`(?m)^\s*id\s+(t\d+)\s*$`)
)

// TestLeanDetailView loads a file as the dashboard does: the session keeps
// its trajectories lean, and opening one on the Trajectories tab reads its
// metadata and response again, sanitised. Once the file changed, opening
// it shows why it cannot be read in their place.
func TestLeanDetailView(t *testing.T) {
	path := writeLeanFile(t, leanLines(0, 32, "t"))
	app := loadModel(t, Input{Source: path, Load: func(progress func(done, total int64)) (*loaders.Result, error) {
		return loaders.Load([]string{path}, loaders.Options{Progress: progress})
	}}, 200)
	checkLean(t, app.Session())
	press(app, "5", "enter")
	view := screen(app)
	m := openedResponse.FindStringSubmatch(view)
	if m == nil || strings.Contains(app.View().Content, "\x1b[31m") {
		t.Fatalf("the opened trajectory does not show its response, sanitised:\n%s", view)
	}
	if id := openedID.FindStringSubmatch(view); id == nil || id[1] != m[1] {
		t.Errorf("opened %q, shows the response of %s:\n%s", id, m[1], view)
	}
	for _, want := range []string{"accuracy", `"n` + strings.TrimPrefix(m[1], "t") + `"`, "read from"} {
		if !strings.Contains(view, want) {
			t.Errorf("the opened trajectory does not show %q:\n%s", want, view)
		}
	}
	if err := os.WriteFile(path, []byte(leanLines(0, 32, "u")), 0o644); err != nil {
		t.Fatal(err)
	}
	press(app, "esc", "enter")
	if view := screen(app); !strings.Contains(view, `changed since it was loaded: the record there now has id "u`) || openedResponse.MatchString(view) {
		t.Errorf("the opened trajectory of a changed file does not say so:\n%s", view)
	}
}

// TestStreamSession checks that Input.Stream builds the session that
// Input.Load builds, over several chunks of the stream, with the skipped
// lines' warning, but lean as the trajectories come.
func TestStreamSession(t *testing.T) {
	path := writeLeanFile(t, leanLines(0, 10000, "t")+"{bad\n"+leanLines(10000, 100, "t"))
	opts := loaders.Options{SkipInvalid: true}
	loaded := loadModel(t, Input{Source: path, Load: func(func(done, total int64)) (*loaders.Result, error) {
		return loaders.Load([]string{path}, opts)
	}}, 120).Session()
	// The dashboard picks the objectives' keys as compute does, rather
	// than reading every trajectory's metadata into a map.
	var picked *scoring.Pick
	streamed := loadModel(t, Input{Source: path, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
		opts := opts
		opts.Pick = func(first *scoring.Trajectory) *scoring.Pick {
			picked = hooks.Pick(first)
			return picked
		}
		return loaders.Stream([]string{path}, opts, hooks.Each)
	}}, 120).Session()
	if picked == nil || !slices.Equal(picked.Keys, []string{"accuracy", "safety"}) {
		t.Errorf("the dashboard picked %+v, want the keys accuracy and safety", picked)
	}
	checkLean(t, streamed)
	checkSameSession(t, streamed, loaded)
}

// checkSameSession fails t unless the session got, read as it came, holds
// the trajectories, result, config and (one) warning of want, read whole.
func checkSameSession(t *testing.T, got, want *session.Session) {
	t.Helper()
	if !reflect.DeepEqual(got.Trajectories, want.Trajectories) {
		t.Error("the trajectories read as they came differ from those read whole")
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	if !slices.EqualFunc(got.Result.Rewards, want.Result.Rewards, same) || !reflect.DeepEqual(got.Config, want.Config) {
		t.Error("the result or config of the trajectories read as they came differs")
	}
	if !slices.Equal(got.Warnings, want.Warnings) || len(want.Warnings) != 1 {
		t.Errorf("warnings %q, want %q (one)", got.Warnings, want.Warnings)
	}
}

// TestLeanFollow follows a file that grows: the trajectories that come
// are kept lean too, and read again whole.
func TestLeanFollow(t *testing.T) {
	path := writeLeanFile(t, leanLines(0, 32, "t"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	app := loadModel(t, Input{Source: path, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 10 * time.Millisecond, Each: hooks.Each})
	}}, 120)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(leanLines(32, 32, "t"))
	f.Close()
	for app.Session().Trajectories.Len() < 64 {
		app.Update(app.live.wait()())
	}
	checkLean(t, app.Session())
	for i, tr := range wholeTrajectories(t, app.Session()) {
		if want := fmt.Sprintf("response of t%d \x1b[31mred", i); tr.ResponseText() != want || tr.Metadata["note"] != fmt.Sprintf("n%d", i) {
			t.Fatalf("trajectory %d read again: %q %v", i, tr.ResponseText(), tr.Metadata)
		}
	}
	cancel()
	for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
	}
}

// TestStreamSessionCapped: a stream that --max-rows stopped says so in the
// dashboard's warnings, and that the groups read are whole (groups of 4,
// the cap at 40).
func TestStreamSessionCapped(t *testing.T) {
	path := writeLeanFile(t, leanLines(0, 100, "t"))
	s := loadModel(t, Input{Source: path, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
		return loaders.Stream([]string{path}, loaders.Options{MaxRows: 40, Pick: hooks.Pick}, hooks.Each)
	}}, 120).Session()
	want := "read only the first 40 trajectories (--max-rows); the rest of the input was not read; the first row not read begins another group: the groups read are whole"
	if s.Trajectories.Len() != 40 || !slices.Contains(s.Warnings, want) {
		t.Errorf("%d trajectories, warnings %q; want 40 and %q", s.Trajectories.Len(), s.Warnings, want)
	}
}
