package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestFollowWarnsOfMixedPrompts: following a trainer's layout
// (EqualGroups), a group of more than one prompt is warned of, in the
// first reading and in a batch that comes later, as the dashboard warns
// without following.
func TestFollowWarnsOfMixedPrompts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	// Step 0: g0 answers prompts a and b.
	first := `{"id":"t0","batch":0,"group":"g0","metadata":{"p":"a","r":1}}
{"id":"t1","batch":0,"group":"g0","metadata":{"p":"b","r":0}}
`
	if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := followInput(ctx, path, loaders.Options{})
	in.Config = setup.Config{Method: "grpo", PromptBy: "metadata.p", EqualGroups: true, Objectives: []setup.ObjectiveConfig{{Name: "r", Expr: "metadata.r"}}}
	app := loadModel(t, in, 120)
	mixed := func(want string) bool {
		return slices.ContainsFunc(app.Session().Warnings, func(w string) bool { return strings.HasPrefix(w, want) })
	}
	if want := `1 group of more than one prompt (prompt_by metadata.p): step 0, group "g0"`; !mixed(want) {
		t.Fatalf("first reading: warnings %q, want %q", app.Session().Warnings, want)
	}
	// Step 1: g1 answers prompts c and d.
	testfile.Append(t, path, `{"id":"t2","batch":1,"group":"g1","metadata":{"p":"c","r":1}}
{"id":"t3","batch":1,"group":"g1","metadata":{"p":"d","r":0}}
`)
	for app.Session().Trajectories.Len() < 4 {
		app.Update(app.live.wait()())
	}
	if want := `2 groups of more than one prompt (prompt_by metadata.p): step 0, group "g0"`; !mixed(want) || mixed("1 group of") {
		t.Errorf("step 1 came: warnings %q, want %q alone", app.Session().Warnings, want)
	}
	cancel()
	drain(app)
}

// TestFollowWarnsOfMixedPromptsInAStepThatGrows: a group that comes to
// mix prompts as rows are appended to its step is warned of, under scope
// group and under scope batch (the check splits the batch into its
// groups itself), and a file read again whose rows no longer mix them
// takes the warning back.
func TestFollowWarnsOfMixedPromptsInAStepThatGrows(t *testing.T) {
	for _, scope := range []engine.Scope{engine.ScopeGroup, engine.ScopeBatch} {
		t.Run(string(scope), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.jsonl")
			first := `{"id":"t0","batch":0,"group":"g0","metadata":{"p":"a","r":1}}
{"id":"t1","batch":0,"group":"g0","metadata":{"p":"a","r":0}}
`
			if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in := followInput(ctx, path, loaders.Options{})
			in.Config = setup.Config{Method: "grpo", Scope: string(scope), PromptBy: "metadata.p", EqualGroups: true, Objectives: []setup.ObjectiveConfig{{Name: "r", Expr: "metadata.r"}}}
			app := loadModel(t, in, 120)
			mixed := func() bool {
				return slices.ContainsFunc(app.Session().Warnings, func(w string) bool { return strings.Contains(w, "of more than one prompt") })
			}
			if mixed() {
				t.Fatalf("first reading: warnings %q, want none of mixed prompts", app.Session().Warnings)
			}
			// More rows of step 0: g0 now answers a and b.
			testfile.Append(t, path, `{"id":"t2","batch":0,"group":"g0","metadata":{"p":"b","r":1}}
`)
			for app.Session().Trajectories.Len() < 3 {
				app.Update(app.live.wait()())
			}
			if want := `1 group of more than one prompt (prompt_by metadata.p): step 0, group "g0"`; !slices.ContainsFunc(app.Session().Warnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
				t.Errorf("step 0 grew: warnings %q, want %q", app.Session().Warnings, want)
			}
			// The file rewritten, as many rows, with one prompt again.
			reloads := app.Session().Reloads
			renamed := path + ".new"
			if err := os.WriteFile(renamed, []byte(first+`{"id":"t2","batch":0,"group":"g0","metadata":{"p":"a","r":1}}
`), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(renamed, path); err != nil {
				t.Fatal(err)
			}
			for app.Session().Reloads == reloads || app.Session().Trajectories.Len() != 3 {
				app.Update(app.live.wait()())
			}
			if mixed() {
				t.Errorf("read again with one prompt: warnings %q, want none of mixed prompts", app.Session().Warnings)
			}
			cancel()
			drain(app)
		})
	}
}
