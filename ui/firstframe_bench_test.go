package ui

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/loaders"
)

// writeParetoRun writes n trajectories to path in one batch, in groups of
// 8, with three uniform objectives in the metadata: the lines of
// scripts/seed_pareto.py gen --m 3 --group-size 8.
func writeParetoRun(tb testing.TB, path string, n int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range n {
		fmt.Fprintf(w, `{"id": "t%d", "batch": 0, "group": "g%d", "step_count": %d, "response": "The answer is %d.", "metadata": {"o1": %v, "o2": %v, "o3": %v}}`+"\n",
			i, i/8, 1+rng.IntN(20), i, rng.Float64(), rng.Float64(), rng.Float64())
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkFirstFrame1M measures the dashboard's start on a 1M-line JSONL
// file (one batch, groups of 8, three objectives), as `rewardlens FILE`
// does it: the stream read and evaluated, the session opened and the
// first frame of the Rewards tab drawn at 140x45.
func BenchmarkFirstFrame1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "run.jsonl")
	writeParetoRun(b, path, 1_000_000)
	for b.Loop() {
		in := Input{Source: path, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
			return loaders.Stream([]string{path}, loaders.Options{Progress: hooks.Progress, Pick: hooks.Pick}, hooks.Each)
		}}
		s, err := in.session(func(int64, int64) {})
		if err != nil {
			b.Fatal(err)
		}
		m := NewModel(s, true)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
		_ = m.View()
	}
}
