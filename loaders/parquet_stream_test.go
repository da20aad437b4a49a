package loaders

import (
	"bytes"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	defer func(old int64) { maxParquetStream = old }(maxParquetStream)
	maxParquetStream = int64(len(data)) - 1
	if _, err := Read(bytes.NewReader(data), "-", 0, Options{Format: Parquet}); err == nil || !strings.Contains(err.Error(), "a Parquet stream longer than") {
		t.Errorf("past the bound: %v", err)
	}
	maxParquetStream = int64(len(data))
	if res, err := Read(bytes.NewReader(data), "-", 0, Options{Format: Parquet}); err != nil || len(res.Trajectories) == 0 {
		t.Errorf("at the bound: %v", err)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
