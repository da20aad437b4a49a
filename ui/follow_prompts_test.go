package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/loaders"
)

// csvPromptRows returns n rows of a CSV file with a prompt column, from
// row first on: groups of 4, batches of 16.
func csvPromptRows(first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "t%d,%d,g%d,question %d,%g\n", i, i/16, i/4, i/4%3, float64(i%5)/4)
	}
	return b.String()
}

// TestFollowCSVKeepsPrompts: a followed CSV file whose run appends rows,
// with the prompt read of its records (prompt_by), keeps the prompts'
// columns: the rows appended are read as new ones, not the file as
// written over, which left the Prompts tab without its columns.
func TestFollowCSVKeepsPrompts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.csv")
	if err := os.WriteFile(path, []byte("id,batch,group,question,a\n"+csvPromptRows(0, 16)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := followInput(ctx, path, loaders.Options{})
	in.Config = setup.Config{Method: "grpo", PromptBy: "metadata.question", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}}
	app := loadModel(t, in, 120)
	if s := app.Session(); s.Prompts == nil || s.PromptsErr != nil {
		t.Fatalf("first reading: prompts %v, %v", s.Prompts, s.PromptsErr)
	}
	testfile.Append(t, path, csvPromptRows(16, 16))
	for app.Session().Trajectories.Len() < 32 {
		app.Update(app.live.wait()())
	}
	s := app.Session()
	if s.Prompts == nil || s.PromptsErr != nil {
		t.Fatalf("rows appended: prompts %v, %v", s.Prompts, s.PromptsErr)
	}
	if got := len(s.Prompts.Keys.Of); got != 32 || len(s.Prompts.Keys.Names) != 3 {
		t.Errorf("the prompts of %d trajectories, %v; want 32, of 3 prompts", got, s.Prompts.Keys.Names)
	}
	cancel()
	drain(app)
}
