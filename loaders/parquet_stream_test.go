package loaders

import (
	"bytes"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// TestParquetStreamBounded: random bytes read as Parquet from a stream
// fail at their first bytes, and a Parquet stream longer than the bound
// fails once past it, without reading the rest (issue 16).
func TestParquetStreamBounded(t *testing.T) {
	noise := io.LimitReader(rand.Reader, 1<<30) // read whole, 1 GiB
	counted := &countingReader{r: noise}
	_, err := Read(counted, "-", 0, Options{Format: Parquet})
	if err == nil || !strings.Contains(err.Error(), "not a Parquet file") {
		t.Fatalf("random bytes: %v", err)
	}
	if counted.n > 1<<20 {
		t.Errorf("random bytes: %d bytes read before the error", counted.n)
	}

	data, err := os.ReadFile(filepath.Join("..", "sample_data", "trl", "completions", "completions_00001.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer func(old int64) { parquetread.MaxStream = old }(parquetread.MaxStream)
	parquetread.MaxStream = int64(len(data)) - 1
	if _, err := Read(bytes.NewReader(data), "-", 0, Options{Format: Parquet}); err == nil || !strings.Contains(err.Error(), "a Parquet stream longer than") {
		t.Errorf("past the bound: %v", err)
	}
	parquetread.MaxStream = int64(len(data))
	if res, err := Read(bytes.NewReader(data), "-", 0, Options{Format: Parquet}); err != nil || len(res.Trajectories) == 0 {
		t.Errorf("at the bound: %v", err)
	}
}

// TestParquetStreamHeldOnce: a Parquet stream is held once as it is read,
// not copied as it grows (io.ReadAll peaked at 2.6 GB for a stream past
// the 1 GiB bound), and read back at any offset as it was.
func TestParquetStreamHeldOnce(t *testing.T) {
	defer func(old int64) { parquetread.MaxStream = old }(parquetread.MaxStream)
	parquetread.MaxStream = 64 << 20
	stream := io.MultiReader(strings.NewReader("PAR1"), io.LimitReader(zeros{}, 128<<20))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(stream, "-", 0, Options{Format: Parquet})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "a Parquet stream longer than 64 MiB") {
		t.Errorf("past the bound: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
		t.Errorf("%d MiB allocated to read a stream to its 64 MiB bound", alloc>>20)
	}

	data := make([]byte, 3<<20+12345)
	rand.Read(data)
	for _, hint := range []int64{0, int64(len(data)), 100} {
		p, err := parquetread.ReadPieces(bytes.NewReader(data), hint)
		if err != nil || p.Size != int64(len(data)) {
			t.Fatalf("hint %d: %v, %d bytes", hint, err, p.Size)
		}
		for _, c := range [][2]int{{0, 10}, {parquetread.FirstPiece - 3, 7}, {0, len(data)}, {len(data) - 5, 5}, {1 << 20, 2 << 20}, {len(data) - 5, 10}, {len(data), 1}} {
			b := make([]byte, c[1])
			n, err := p.ReadAt(b, int64(c[0]))
			want := data[c[0]:min(c[0]+c[1], len(data))]
			if n != len(want) || !bytes.Equal(b[:n], want) || (n < c[1]) != (err == io.EOF) {
				t.Errorf("hint %d, ReadAt(%d bytes at %d) = %d, %v", hint, c[1], c[0], n, err)
			}
		}
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
