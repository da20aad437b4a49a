package ui

import (
	"context"
	"fmt"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/statusline"
)

// TestLayoutWarnings: what Input.LayoutWarnings says of the result is in
// the status line, whether the inputs are loaded whole, streamed or
// followed.
func TestLayoutWarnings(t *testing.T) {
	path := writeLeanFile(t, leanLines(0, 12, "t"))
	warn := func(scoring.RowCap, map[int64]string) func(*engine.Result, []int) []string {
		return func(res *engine.Result, batches []int) []string {
			return []string{fmt.Sprintf("%d rewards in %d batches", len(res.Rewards), len(batches))}
		}
	}
	const want = "12 rewards in 1 batches"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for name, in := range map[string]Input{
		"load": {Source: path, LayoutWarnings: warn, Load: func(func(done, total int64)) (*loaders.Result, error) {
			return loaders.Load([]string{path}, loaders.Options{})
		}},
		"stream": {Source: path, LayoutWarnings: warn, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
			return loaders.Stream([]string{path}, loaders.Options{Pick: hooks.Pick}, hooks.Each)
		}},
		"follow": {Source: path, LayoutWarnings: warn, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
			return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 10 * time.Millisecond, Each: hooks.Each})
		}},
	} {
		s := loadModel(t, in, 120).Session()
		var l statusline.Line
		l.Refresh(s)
		if got := l.View(common.NewStyles(true, true), 300); !strings.Contains(got, want) {
			t.Errorf("%s: status line %q, want %q in it", name, got, want)
		}
	}
}
