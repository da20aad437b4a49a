package loaders

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// TestParquetFileInPlace: a Parquet file is read where its footer and
// pages are, never whole: the reads of the file add up to less than it
// (its 4 row groups are of 5000 rows each and it is stopped in the
// first), its rows are the same as from a stream, the progress counts
// it once, and a name of another format or the magic bytes decide as
// detectFormat does.
func TestParquetFileInPlace(t *testing.T) {
	rows := make([]idRow, 20000)
	for i := range rows {
		rows[i] = idRow{ID: "r" + strconv.Itoa(i), A: float64(i)}
	}
	path := writeParquet(t, "in.parquet", rows, parquet.MaxRowsPerRowGroup(5000), parquet.Compression(&parquet.Uncompressed))
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var done, total int64
	res, err := Load([]string{path}, Options{Progress: func(d, tot int64) { done, total = d, tot }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trajectories) != len(rows) || res.Trajectories[19999].ID != "r19999" || res.Trajectories[19999].Line != 20000 {
		t.Fatalf("%d trajectories, the last %+v", len(res.Trajectories), res.Trajectories[len(res.Trajectories)-1].LoaderState)
	}
	if done != st.Size() || total != st.Size() {
		t.Errorf("progress %d of %d, want %d of %d", done, total, st.Size(), st.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stream, err := Read(f, "-", 0, Options{Format: Parquet})
	if err != nil || len(stream.Trajectories) != len(rows) || stream.Trajectories[7].ID != "r7" {
		t.Fatalf("as a stream: %v", err)
	}

	for name, want := range map[string]bool{"in.parquet": true, "in": true, "in.jsonl": false, "in.csv.gz": false} {
		if got := parquetInPlace(f, name, ""); got != want {
			t.Errorf("parquetInPlace(%s) = %v, want %v", name, got, want)
		}
	}
	if !parquetInPlace(f, "in.jsonl", Parquet) || parquetInPlace(f, "in.parquet", JSONL) {
		t.Error("the format given does not decide")
	}

	// Stopped in the first row group: the rest is never read.
	counted := &countingReaderAt{f: f}
	l := newLoader(path, 0, Options{rowLimit: 10}, st.Size(), nil)
	if err := parquetread.ReadAt(l, counted, st.Size()); err != nil || l.Count != 10 {
		t.Fatalf("%d rows: %v", l.Count, err)
	}
	// The footer, the page headers checked and the first row group's
	// pages: a fraction of the file.
	if counted.n > st.Size()/2 {
		t.Errorf("%d of %d bytes read for 10 rows", counted.n, st.Size())
	}
}

type countingReaderAt struct {
	f *os.File
	n int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// TestParquetFileCancelled: cancelling a load stops the Parquet reader at
// its next batch of rows, with the context's error at the row it stopped.
func TestParquetFileCancelled(t *testing.T) {
	rows := make([]idRow, 20000)
	for i := range rows {
		rows[i] = idRow{ID: "r" + strconv.Itoa(i), A: float64(i)}
	}
	path := writeParquet(t, "in.parquet", rows, parquet.MaxRowsPerRowGroup(5000))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	_, err := Stream([]string{path}, Options{Context: ctx}, func(ts []scoring.Trajectory) error {
		seen += len(ts)
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), path+":") {
		t.Fatalf("err = %v", err)
	}
	if seen == 0 || seen >= len(rows) {
		t.Errorf("%d of %d rows handed over before the cancel stopped the reader", seen, len(rows))
	}
}

// TestParquetRowsInBlocks: rows decoded on their own goroutine and taken
// in blocks give what reading row by row gives: the first bad row's error,
// or, skipping, every bad row in order and the trajectories around them
// with their default IDs and row numbers, across blocks and row groups;
// a reading stopped by its consumer ends the decoding.
func TestParquetRowsInBlocks(t *testing.T) {
	rows := make([]badBatchRow, 3*parquetread.BlockRows+7)
	var bad []int
	for i := range rows {
		rows[i].Batch = float64(i % 5)
		if i%1000 == 999 || i == parquetread.BlockRows || i == parquetread.BlockRows-1 {
			rows[i].Batch = 0.5
			bad = append(bad, i+1)
		}
	}
	path := writeParquet(t, "bad.parquet", rows, parquet.MaxRowsPerRowGroup(5000))
	_, err := Load([]string{path}, Options{})
	checkLineError(t, err, path+`:1000: batch: must be an integer, found "0.5"`)

	res, err := Load([]string{path}, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trajectories) != len(rows)-len(bad) || res.Skipped != len(bad) {
		t.Fatalf("%d trajectories, %d skipped; want %d, %d", len(res.Trajectories), res.Skipped, len(rows)-len(bad), len(bad))
	}
	for k, e := range res.SkipReasons {
		if e.Line != bad[k] {
			t.Errorf("skipped %d: row %d, want %d", k, e.Line, bad[k])
		}
	}
	next := 0
	for i, tr := range res.Trajectories {
		for next < len(bad) && bad[next] == i+next+1 {
			next++
		}
		if row := i + next + 1; tr.Line != row || tr.ID != strconv.Itoa(i) || tr.Batch != int64((row-1)%5) {
			t.Fatalf("trajectory %d: row %d, ID %s, batch %d; want row %d, ID %d", i, tr.Line, tr.ID, tr.Batch, row, i)
		}
	}

	stopped := errors.New("enough")
	_, err = Stream([]string{path}, Options{SkipInvalid: true}, func([]scoring.Trajectory) error { return stopped })
	if !errors.Is(err, stopped) {
		t.Errorf("stopped by the consumer: %v", err)
	}
}
