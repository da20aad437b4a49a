package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestGoldenHeaderUnread: the header while a followed file is not read,
// at 80, 120 and 140 columns, under the source's name and a long path:
// the unread mark shortens ("⚠ 1 unread") before the method's label goes.
func TestGoldenHeaderUnread(t *testing.T) {
	var sb strings.Builder
	for _, source := range []string{"run.jsonl", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/"} {
		for _, width := range []int{80, 120, 140} {
			m, _ := newLiveModel(t)
			m.Session().Source = source
			m.Update(tea.WindowSizeMsg{Width: width, Height: 40})
			m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: "run/rollouts_rank_003.jsonl", Err: errors.New("open run/rollouts_rank_003.jsonl: permission denied")}}}, true})
			m.Settle()
			fmt.Fprintf(&sb, "%d columns, source %s:\n%s\n\n", width, source, headerOf(m))
		}
	}
	golden.RequireEqual(t, sb.String())
}
