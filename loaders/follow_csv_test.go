package loaders

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestFollowCSVPartialRowWaits: a followed CSV file's last row without
// its line end yet, cut within a quoted field that spans lines or after
// its last value, is neither an error nor read, however long it waits; it
// is read once its line end comes.
func TestFollowCSVPartialRowWaits(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, watch := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "r.csv")
		if err := os.WriteFile(path, []byte("id,note,x\na,,1\nb,,2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		res, ch, err := Follow(ctx, []string{path}, followOptions(watch))
		if err != nil {
			t.Fatal(err)
		}
		f := newFollowed(res)
		settle := func(what string) {
			t.Helper()
			for deadline := time.After(150 * time.Millisecond); ; {
				select {
				case u := <-ch:
					f.apply(u)
					continue
				case <-deadline:
				}
				break
			}
			if len(f.errs) > 0 || !slices.Equal(f.ids[path], []string{"a", "b"}) {
				t.Fatalf("watch=%v, %s: loaded %v, errors %v", watch, what, f.ids, f.errs)
			}
		}
		testfile.Append(t, path, "c")
		settle("a row cut in its first field")
		testfile.Append(t, path, ",\"two\nlines")
		settle("a row cut in a quoted field after its line break")
		testfile.Append(t, path, "\",3")
		settle("a row cut after a value")
		testfile.Append(t, path, "0\n")
		f.await(t, ch, "the completed row", func() bool { return slices.Equal(f.ids[path], []string{"a", "b", "c"}) })
		if len(f.errs) > 0 || !slices.Equal(f.lines[path], []int{2, 3, 4}) {
			t.Errorf("watch=%v: lines %v, errors %v", watch, f.lines[path], f.errs)
		}
		cancel()
		for range ch {
		}
	}
}
