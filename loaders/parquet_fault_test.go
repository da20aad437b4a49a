package loaders

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// parquetSeeds returns real Parquet files: the TRL completions of
// sample_data (written by pandas through pyarrow) and parquet-go's files
// of the shapes parquet_test reads: flat columns over two row groups, a
// metadata struct, a metadata map.
func parquetSeeds(t testing.TB) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "sample_data", "trl", "completions", "*.parquet"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no sample Parquet files: %v", err)
	}
	var seeds [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	safety := 0.5
	written := []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error {
			return parquet.Write(b, []flatRow{
				{ID: "a", Batch: 3, Group: "p1", StepCount: 4, Response: "The answer is 42.", Done: true, Accuracy: 1, Safety: &safety, Tokens: 412, Tag: "x", Big: 1 << 40},
				{ID: "b", Batch: 3, Group: "p1", Accuracy: 0.5, Tokens: 7},
				{ID: "c", Batch: 4, Group: "p2", Tag: "y"},
			}, parquet.MaxRowsPerRowGroup(2))
		},
		func(b *bytes.Buffer) error {
			return parquet.Write(b, []structRow{{ID: "a", Metadata: &scores{Accuracy: 1, Safety: &safety, Model: "m"}, Extra: 2}, {ID: "b"}})
		},
		func(b *bytes.Buffer) error {
			return parquet.Write(b, []mapRow{{ID: "a", Batch: 1, Metadata: map[string]float64{"accuracy": 1, "length": 12}}, {ID: "b", Batch: 1}})
		},
	}
	for _, write := range written {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b.Bytes())
	}
	return seeds
}

// FuzzParquet reads arbitrary bytes as Parquet, strictly and with
// SkipInvalid, and as Peek reads a file (in place, up to its first row):
// an error naming the input, or trajectories, never a panic (issue 27,
// item 3: parquet-go panics on some corrupt pages). testdata/fuzz holds
// mutated seeds that made parquet-go panic.
func FuzzParquet(f *testing.F) {
	for _, seed := range parquetSeeds(f) {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParquet(t, dir, data)
	})
}

// TestParquetMutations reads 300 mutations of the seeds as FuzzParquet
// does: a fuzzing of its own for the test suite, which never runs the
// fuzzer.
func TestParquetMutations(t *testing.T) {
	seeds := parquetSeeds(t)
	dir := t.TempDir()
	for i := range 300 {
		checkParquet(t, dir, mutateParquet(seeds, i))
	}
}

// mutateParquet returns mutation i of the seeds: seed i mod their number
// with 1 to 8 bytes set at random.
func mutateParquet(seeds [][]byte, i int) []byte {
	rng := rand.New(rand.NewPCG(27, uint64(i)))
	data := bytes.Clone(seeds[i%len(seeds)])
	for range 1 + rng.IntN(8) {
		data[rng.IntN(len(data))] = byte(rng.IntN(256))
	}
	return data
}

// checkParquet reads data as checkBothModes does, then from a file in dir
// as Peek does: an error naming the file, or its fields.
func checkParquet(t *testing.T, dir string, data []byte) {
	checkBothModes(t, "fuzz.parquet", data, Parquet)
	name := filepath.Join(dir, "fuzz.parquet")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Peek([]string{name}, Options{})
	switch {
	case err != nil && !strings.Contains(err.Error(), name):
		t.Fatalf("Peek's error %q does not name the file", err)
	case err == nil && len(data) > 0 && len(files) != 1:
		t.Fatalf("Peek: %d files", len(files))
	}
}
