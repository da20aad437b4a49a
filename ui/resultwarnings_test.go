package ui

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestResultWarnings: what Input.ResultWarnings says of the first result
// is among the session's warnings (the status line's), whether the inputs
// are loaded whole, streamed or followed.
func TestResultWarnings(t *testing.T) {
	path := writeLeanFile(t, leanLines(0, 12, "t"))
	warn := func(res *engine.Result) []string {
		return []string{fmt.Sprintf("%d rewards in %d batches", len(res.Rewards), len(res.Batches))}
	}
	const want = "12 rewards in 1 batches"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for name, in := range map[string]Input{
		"load": {Source: path, ResultWarnings: warn, Load: func(func(done, total int64)) (*loaders.Result, error) {
			return loaders.Load([]string{path}, loaders.Options{})
		}},
		"stream": {Source: path, ResultWarnings: warn, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
			return loaders.Stream([]string{path}, loaders.Options{Pick: hooks.Pick}, hooks.Each)
		}},
		"follow": {Source: path, ResultWarnings: warn, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
			return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 10 * time.Millisecond, Each: hooks.Each})
		}},
	} {
		s := loadModel(t, in, 120).Session()
		if !slices.Contains(s.Warnings, want) {
			t.Errorf("%s: warnings %q, want %q among them", name, s.Warnings, want)
		}
	}
}
