package loaders

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// benchJSONL returns about size bytes of JSONL shaped like the training
// logs in sample_data: a short id and group, a response of a few hundred
// bytes and seven metadata values.
func benchJSONL(size int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"Let", "me", "work", "through", "this", "step", "by", "April:", "48", "clips;",
		"May:", "half", "as", "many,", "24.", "Total", "The", "answer", "is", "72.", "Verifying", "once", "more"}
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		var resp bytes.Buffer
		for n := 20 + rng.IntN(60); n > 0; n-- {
			resp.WriteString(words[rng.IntN(len(words))])
			resp.WriteByte(' ')
		}
		fmt.Fprintf(&b, `{"id":"s%02d-p%02d-c%d","batch":%d,"group":"p%02d","step_count":%d,"done":%t,"response":%q,`+
			`"metadata":{"prompt":"gsm8k-%04d","accuracy":%d,"safety":%.3f,"response_length":%d,"verification_spent":%.1f,"initial_budget":1000,"max_steps":16}}`+"\n",
			i/512, i/8%64, i%8, i/512, i/8%64, rng.IntN(16), rng.IntN(10) > 0, resp.String(),
			rng.IntN(10000), rng.IntN(2), rng.Float64(), resp.Len(), rng.Float64()*200)
	}
	return b.Bytes()
}

func BenchmarkLoadJSONL(b *testing.B) {
	data := benchJSONL(50 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), "bench.jsonl", 0, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadJSON(b *testing.B) {
	lines := bytes.Split(bytes.TrimSpace(benchJSONL(50<<20)), []byte("\n"))
	data := append(append([]byte("[\n"), bytes.Join(lines, []byte(",\n"))...), "\n]\n"...)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), "bench.json", 0, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// metadataJSONL returns n lines shaped like the output of a reward model
// run (scripts/seed_pareto.py gen): a short id, small integers, a short
// response and m metadata floats written with all their digits.
func metadataJSONL(n, m int) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"id": "t%d", "batch": %d, "step_count": %d, "response": "The answer is %d.", "metadata": {`, i, i/64, rng.IntN(10), i)
		for k := range m {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"o%d": %v`, k+1, rng.Float64())
		}
		b.WriteString("}}\n")
	}
	return b.Bytes()
}

// BenchmarkStreamJSONLMetadata streams short lines that are mostly
// metadata, as rewardlens compute does, with a callback that does nothing:
// with the metadata in maps, and with its keys picked (Options.Pick).
func BenchmarkStreamJSONLMetadata(b *testing.B) {
	for _, m := range []int{3, 8} {
		data := metadataJSONL(100_000, m)
		path := filepath.Join(b.TempDir(), "meta.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		// The metadata in maps, then the m keys picked, as compute does.
		pick := &scoring.Pick{}
		for k := range m {
			pick.Keys = append(pick.Keys, fmt.Sprintf("o%d", k+1))
		}
		for _, opts := range []Options{{}, {Pick: func(*scoring.Trajectory) *scoring.Pick { return pick }}} {
			name := fmt.Sprintf("m=%d", m)
			if opts.Pick != nil {
				name += "/picked"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Stream([]string{path}, opts, func([]scoring.Trajectory) error { return nil }); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkFollowGrow is one check of a followed JSONL file of 1M short
// lines that grew by a step of 128 lines: the new lines read (and
// hashed, keepPrefix), not the file before them.
func BenchmarkFollowGrow(b *testing.B) {
	var text bytes.Buffer
	for i := range 1_000_000 {
		fmt.Fprintf(&text, `{"id":"t%d","batch":%d,"metadata":{"a":%d}}`+"\n", i, i/128, i%2)
	}
	path := filepath.Join(b.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, text.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	ff := &followedFile{path: path, store: &partStore{}}
	if _, _, err := ff.load(Options{}, true, nil, nil, nil); err != nil {
		b.Fatal(err)
	}
	var step bytes.Buffer
	for i := range 128 {
		fmt.Fprintf(&step, `{"id":"n%d","batch":1000000,"metadata":{"a":%d}}`+"\n", i, i%2)
	}
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer file.Close()
	b.SetBytes(int64(step.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := file.Write(step.Bytes()); err != nil {
			b.Fatal(err)
		}
		c := ff.check(Options{})
		if c.err != nil || c.reloaded || c.res == nil || len(c.res.Trajectories) != 128 {
			b.Fatalf("grown by 128 lines: %+v", c)
		}
	}
	ff.closeFile()
}

// BenchmarkFollowGzipReading reads a followed gzipped JSONL file of
// about 20 MB of text from the start, as each of its growths is read:
// held, through heldText, which holds back what follows its last line end
// (the follower's), and read, as Load reads it: the price of the holding.
func BenchmarkFollowGzipReading(b *testing.B) {
	text := benchJSONL(20 << 20)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(text); err != nil {
		b.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "run.jsonl.gz")
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("held", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			ff := &followedFile{path: path}
			if _, _, err := ff.load(Options{}, true, nil, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := Load([]string{path}, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStreamRelogged streams 64 TRL-like tables of 256 rows each
// (JSONL: prompt, completion, two rewards, advantage, step), each step a
// new generation, without and with Options.RelogField: the price of
// hashing every record, which the TRL layout pays.
func BenchmarkStreamRelogged(b *testing.B) {
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	size := int64(0)
	var paths []string
	for step := 1; step <= 64; step++ {
		var buf bytes.Buffer
		for i := range 256 {
			fmt.Fprintf(&buf, `{"step": %d, "prompt": "<|im_start|>user\nQuestion %d of step %d<|im_end|>\n<|im_start|>assistant\n", "completion": "<think>Attempt %d: %x</think> The answer is %d.", "accuracy_reward": %d, "format_reward": %.2f, "advantage": %.6f}`+"\n",
				step, i/8, step, i%8, rng.Uint64(), rng.IntN(100), rng.IntN(2), rng.Float64(), rng.NormFloat64())
		}
		path := filepath.Join(dir, fmt.Sprintf("completions_%05d.jsonl", step))
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, path)
		size += int64(buf.Len())
	}
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		b.Fatal(err)
	}
	for _, field := range []string{"", "step"} {
		b.Run("relog="+field, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Stream(paths, Options{Fields: fields, RelogField: field}, func([]scoring.Trajectory) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadNewestJSON: a JSON array, plain and gzipped, read as the
// newest file of its directory, against the same file named, which is
// read alone; and the check for a cut end (jsonCutShort, "cut-check")
// alone, which Stream makes of the newest file before its reading (Load
// leaves it to the reading: cutAfterReading).
func BenchmarkLoadNewestJSON(b *testing.B) {
	lines := bytes.Split(bytes.TrimSpace(benchJSONL(50<<20)), []byte("\n"))
	text := append(append([]byte("[\n"), bytes.Join(lines, []byte(",\n"))...), "\n]\n"...)
	for _, zip := range []bool{false, true} {
		name, data := "bench.json", text
		if zip {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(text)
			zw.Close()
			name, data = "bench.json.gz", buf.Bytes()
		}
		dir := b.TempDir()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct{ name, input string }{{"named", path}, {"newest", dir}} {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, err := Load([]string{c.input}, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(name+"/cut-check", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if jsonCutShort(func() io.Reader { return bytes.NewReader(data) }, int64(len(data))) {
					b.Fatal("a complete array found cut short")
				}
			}
		})
	}
}

// BenchmarkFollowReloadJSON is the reading again of a followed JSON array
// of 200k rows, plain and gzipped, as a check that finds it changed does
// (followedFile.reload): whether it is cut short is found by the reading
// itself, not by a pass over the file before it. Each iteration also
// times that pass alone (jsonCutShort, which Load still makes of a
// directory's newest file), beside the reload in the same run: check/reload
// is what the pass would add.
func BenchmarkFollowReloadJSON(b *testing.B) {
	var text bytes.Buffer
	text.WriteString("[\n")
	for i := range 200_000 {
		if i > 0 {
			text.WriteString(",\n")
		}
		fmt.Fprintf(&text, `{"id":"t%d","batch":%d,"response":"The answer is %d.","metadata":{"acc":%d,"len":%d}}`, i, i/512, i%97, i%2, i%300)
	}
	text.WriteString("\n]\n")
	dir := b.TempDir()
	for _, c := range []struct {
		name string
		data []byte
	}{{"run.json", text.Bytes()}, {"run.json.gz", gzipped(text.String())}} {
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				b.Fatal(err)
			}
			file, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer file.Close()
			ff := &followedFile{path: path}
			if _, _, err := ff.load(Options{}, true, nil, nil, nil); err != nil || ff.count != 200_000 {
				b.Fatalf("first reading: %d rows, error %v", ff.count, err)
			}
			b.SetBytes(int64(text.Len()))
			var reloading, checking time.Duration
			for b.Loop() {
				start := time.Now()
				if c := ff.reload(Options{}, nil); c.err != nil || c.res == nil || ff.count != 200_000 {
					b.Fatalf("reloaded: %d rows, %+v", ff.count, c)
				}
				reloading += time.Since(start)
				start = time.Now()
				if jsonCutShort(func() io.Reader { return io.NewSectionReader(file, 0, int64(len(c.data))) }, int64(len(c.data))) {
					b.Fatal("a complete array found cut short")
				}
				checking += time.Since(start)
			}
			b.ReportMetric(float64(reloading.Nanoseconds())/float64(b.N), "reload-ns/op")
			b.ReportMetric(float64(checking)/float64(reloading), "check/reload")
		})
	}
}

// BenchmarkPeek peeks at the files named by REWARDLENS_PEEK_BENCH
// (space-separated paths, e.g. the 1M-row JSONL and CSV files of
// scripts/geninputs), one sub-benchmark each; skipped when unset.
func BenchmarkPeek(b *testing.B) {
	paths := strings.Fields(os.Getenv("REWARDLENS_PEEK_BENCH"))
	if len(paths) == 0 {
		b.Skip("REWARDLENS_PEEK_BENCH names no files")
	}
	for _, path := range paths {
		b.Run(filepath.Base(path), func(b *testing.B) {
			for b.Loop() {
				files, err := Peek([]string{path}, Options{})
				if err != nil || len(files) != 1 {
					b.Fatalf("Peek: %v, %+v", err, files)
				}
			}
		})
	}
}
