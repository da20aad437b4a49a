// Package testkit holds what the tests of several packages share: a
// buffer a program writes while a test reads it, the comparison of floats
// within a tolerance, values shaped like a dashboard's, a file copied
// whole into a followed directory, open-instruct traces, work stopped at
// a pause.Gate, and for benchmarks the process's CPU time, reported per
// op, and the methods the dashboard's benchmarks switch through.
package testkit

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// SyncBuffer is a bytes.Buffer that a program's goroutines write while a
// test reads it.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Tol is the relative tolerance of Near.
const Tol = 1e-12

// Near reports whether a is b within the relative tolerance Tol (at least
// Tol absolutely); infinities must be equal, and NaN is near NaN.
func Near(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return a == b || (math.IsNaN(a) && math.IsNaN(b))
	}
	return math.Abs(a-b) <= Tol*max(1, math.Abs(b))
}

// AssertFloats fails t unless got has want's length and each of its values
// is Near want's.
func AssertFloats(t testing.TB, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range want {
		if !Near(got[i], want[i]) {
			t.Errorf("%s[%d] = %.15g, want %.15g (all: %v)", what, i, got[i], want[i], got)
		}
	}
}

// GRPOShaped returns n values shaped like a dashboard's comparison: a =
// 0.3 u1 + 0.7 u2, a weighted sum of two uniform objectives, and b its
// GRPO reward, (a - mean) / std in each group of 8 consecutive values
// (std floored at 1e-4): correlated, far from in the same order.
func GRPOShaped(n int, rng *rand.Rand) (a, b []float64) {
	a, b = make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = 0.3*rng.Float64() + 0.7*rng.Float64()
	}
	for lo := 0; lo < n; lo += 8 {
		g := a[lo:min(lo+8, n)]
		var mean, ss float64
		for _, v := range g {
			mean += v
		}
		mean /= float64(len(g))
		for _, v := range g {
			ss += (v - mean) * (v - mean)
		}
		std := max(math.Sqrt(ss/float64(len(g))), 1e-4)
		for k, v := range g {
			b[lo+k] = (v - mean) / std
		}
	}
	return a, b
}

// CopyWhole copies file name of directory from into dir as a writer that
// renames does: written beside (in a directory of t's), then renamed, so
// that a follower sees it whole.
func CopyWhole(t testing.TB, from, dir, name string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(from, name))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// OpenInstructSteps returns open-instruct traces (JSONL, as
// grpo_fast's rollout saves write them) of the steps from to to, two
// prompts of four samples each, their advantages standard's; step zero's
// second prompt's rewards all equal (none for no such step): a run in
// which open-instruct's filter_zero_std_samples was off from step zero.
func OpenInstructSteps(from, to, zero int) string {
	var text strings.Builder
	for step := from; step <= to; step++ {
		for i := range 8 {
			// Rewards 0, 1, 0, 1: mean 0.5, numpy's std 0.5.
			reward, advantage := float64(i%2), (float64(i%2)-0.5)/(0.5+1e-8)
			if step == zero && i >= 4 {
				reward, advantage = 1, 0
			}
			b, _ := json.Marshal(map[string]any{"step": step, "sample_idx": i, "prompt_idx": i / 4, "prompt_tokens": []int{step, i / 4}, "reward": reward, "advantage": advantage})
			text.Write(append(b, '\n'))
		}
	}
	return text.String()
}
