package loaders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestFollowFirstReadingStopsOnInterrupt: once the context ends (ctrl+c,
// SIGTERM) during Follow's first reading of a JSONL file, the reading
// stops at its next read with the context's error, as a plain load does,
// instead of reading the file to its end (stats --follow then exited 0
// after the whole load, not 130 at once).
func TestFollowFirstReadingStopsOnInterrupt(t *testing.T) {
	const lines = 200_000
	path := filepath.Join(t.TempDir(), "run.jsonl")
	var text strings.Builder
	for i := range lines {
		fmt.Fprintf(&text, `{"id":"t%d","metadata":{"accuracy":1}}`+"\n", i)
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	handed := 0
	each := func(ts []scoring.Trajectory) error {
		handed += len(ts)
		cancel() // the interrupt comes as the first chunk is evaluated
		return nil
	}
	_, updates, err := Follow(ctx, []string{path}, FollowOptions{Options: Options{Context: ctx}, Each: each, NoWatch: true})
	if err == nil {
		for range updates {
		}
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Follow: %v; want the context's error", err)
	}
	if handed >= lines/2 {
		t.Errorf("%d of %d trajectories read after the interrupt", handed, lines)
	}
}
