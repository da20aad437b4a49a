package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestReserveSkewedByLongID: a 256 KB ID on the second line of two skews
// the estimate of reserve (issue 27, item 1): the room made for the IDs
// stays within the input's size, and the room for trajectories within
// maxReserveGrowth times those read, where the estimate alone reserved
// 1.2 GB. scripts/faults.sh measures the process (a 4 MB ID).
func TestReserveSkewedByLongID(t *testing.T) {
	long := strings.Repeat("x", 256<<10)
	text := `{"id":"a","metadata":{"a":1}}` + "\n" + `{"id":"` + long + `","metadata":{"a":2}}` + "\n"
	path := filepath.Join(t.TempDir(), "long-id.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := res.Trajectories
	computer, _, err := newComputer(setup.Config{}, &ts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(text))
	n := loaders.ExpectedCount(size, ts)
	if n <= len(ts)*maxReserveGrowth {
		t.Fatalf("the case does not skew the estimate: %d expected", n)
	}
	var p prepared
	p.reserve(computer.NewEvaluator(), n, ts, size)
	if got := int64(cap(p.ids.text)); got > size+size/4 {
		t.Errorf("room for %d bytes of IDs, more than the input's %d", got, size)
	}
	if got := cap(p.ids.ends); got > len(ts)*maxReserveGrowth*5/4 {
		t.Errorf("room for %d IDs, more than %d times the %d read", got, maxReserveGrowth, len(ts))
	}
}
