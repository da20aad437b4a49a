package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestGroupOpenWhileTheRunShrinks: a group opened while following hands
// its first completions' read to a job; the group stays open, is closed,
// or its tab is hidden while a followed update reads the run again with
// fewer rows;
// its read landing, a resize, the tab shown again and keys on it lay out
// no row of the run before (they indexed past its end), and the Groups
// tab lists the new run's group.
func TestGroupOpenWhileTheRunShrinks(t *testing.T) {
	for _, how := range []string{"open-read", "open-resize", "open-nothing", "closed-read", "closed-resize", "hidden-read", "hidden-resize"} {
		t.Run(how, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.jsonl")
			var run strings.Builder
			for i := range 8 {
				fmt.Fprintf(&run, `{"id":"t%d","group":"g%d","batch":0,"response":"resp %d","metadata":{"x":%d}}`+"\n", i, i/4, i, i%4)
			}
			if err := os.WriteFile(path, []byte(run.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in := Input{Source: path, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
				return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 5 * time.Millisecond, Each: hooks.Each})
			}}
			in.Config.Method = "grpo"
			app := loadModel(t, in, 160)
			app.Settle()
			press(app, "2")
			app.Settle()
			app.Update(uitest.KeyPress("down"))
			app.Update(uitest.KeyPress("enter"))
			if len(app.jobs) != 1 {
				t.Fatalf("%d jobs after the group opened, want its read", len(app.jobs))
			}
			read := app.jobs[0]
			switch {
			case strings.HasPrefix(how, "hidden"):
				app.Update(uitest.KeyPress("1"))
			case strings.HasPrefix(how, "closed"):
				app.Update(uitest.KeyPress("esc"))
			}
			if err := os.WriteFile(path+".new", []byte(`{"id":"u0","group":"h0","batch":0,"response":"r","metadata":{"x":1}}`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".new", path); err != nil {
				t.Fatal(err)
			}
			for app.Session().Trajectories.Len() != 1 {
				app.Update(app.live.wait()())
			}
			switch {
			case strings.HasSuffix(how, "read"):
				app.Update(jobDoneMsg{read.id, read.tab, read.run()})
			case strings.HasSuffix(how, "resize"):
				app.Update(tea.WindowSizeMsg{Width: 150, Height: 40})
			}
			if strings.HasPrefix(how, "hidden") {
				app.Update(uitest.KeyPress("2"))
			}
			app.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
			if v := screen(app); !strings.Contains(v, "h0") {
				t.Errorf("the Groups tab does not show the new run's group h0:\n%s", v)
			}
			app.Update(uitest.KeyPress("enter"))
			_ = screen(app)
			app.Update(uitest.KeyPress("s"))
			_ = screen(app)
			cancel()
			for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
			}
		})
	}
}
