package output

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// memFile is a descriptor of a file in memory, data. As a direct
// descriptor (aligned), it turns down writes whose offset, length or
// memory is not aligned, as O_DIRECT does, and from the write numbered
// einvalAt on (if > 0), every write.
type memFile struct {
	data     *[]byte
	aligned  bool
	einvalAt int
	writes   int   // the writes asked for
	bytes    int   // the bytes written
	err      error // returned by every write when not nil
}

func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	f.writes++
	if f.err != nil {
		return 0, f.err
	}
	if f.aligned {
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
		if off%directAlign != 0 || len(p)%directAlign != 0 || addr%directAlign != 0 {
			return 0, fmt.Errorf("unaligned direct write: offset %d, %d bytes, memory %#x: %w", off, len(p), addr, syscall.EINVAL)
		}
		if f.einvalAt > 0 && f.writes >= f.einvalAt {
			return 0, syscall.EINVAL
		}
	}
	if end := int(off) + len(p); end > len(*f.data) {
		*f.data = append(*f.data, make([]byte, end-len(*f.data))...)
	}
	copy((*f.data)[off:], p)
	f.bytes += len(p)
	return len(p), nil
}

// descriptors returns a direct and a plain descriptor of one new file in
// memory, and the file.
func descriptors() (direct, plain *memFile, file *[]byte) {
	file = new([]byte)
	return &memFile{data: file, aligned: true}, &memFile{data: file}, file
}

// TestDirectWriter checks that the file holds what was written, whatever
// its size and the sizes of the writes, with every direct write aligned;
// and that a filesystem that turns direct writes down gets them through
// the plain descriptor.
func TestDirectWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	sizes := []int{0, 1, directAlign - 1, directAlign, directAlign + 1, directBuffer - 1, directBuffer,
		directBuffer + 1, 3*directBuffer + directAlign + 17}
	for _, size := range sizes {
		for _, einvalAt := range []int{0, 1, 2} {
			want := make([]byte, size)
			for i := range want {
				want[i] = byte(rng.Uint32())
			}
			direct, plain, file := descriptors()
			direct.einvalAt = einvalAt
			w := newDirectWriter(direct, plain)
			for rest := want; len(rest) > 0; {
				k := min(1+rng.IntN(3*directAlign), len(rest))
				if rng.IntN(50) == 0 {
					k = min(directBuffer+rng.IntN(directBuffer), len(rest))
				}
				if n, err := w.Write(rest[:k]); n != k || err != nil {
					t.Fatalf("size %d: Write = %d, %v", size, n, err)
				}
				rest = rest[k:]
			}
			if err := w.Flush(); err != nil {
				t.Fatalf("size %d, EINVAL from write %d: Flush: %v", size, einvalAt, err)
			}
			if !bytes.Equal(*file, want) {
				t.Fatalf("size %d, EINVAL from write %d: the file differs from what was written", size, einvalAt)
			}
			if tail := size % directAlign; einvalAt == 0 && plain.bytes != tail {
				t.Errorf("size %d: %d bytes went through the plain descriptor, want the last %d only", size, plain.bytes, tail)
			}
		}
	}
}

// TestDirectWriterError checks that a write error other than EINVAL stops
// the writing and comes back from Write and Flush.
func TestDirectWriterError(t *testing.T) {
	broken := errors.New("disk on fire")
	direct, plain, _ := descriptors()
	direct.err = broken
	w := newDirectWriter(direct, plain)
	if _, err := w.Write(make([]byte, directBuffer+1)); !errors.Is(err, broken) {
		t.Fatalf("Write: %v, want %v", err, broken)
	}
	if _, err := w.Write([]byte("more")); !errors.Is(err, broken) {
		t.Fatalf("Write after the error: %v, want %v", err, broken)
	}
	if err := w.Flush(); !errors.Is(err, broken) {
		t.Fatalf("Flush: %v, want %v", err, broken)
	}
	direct, plain, _ = descriptors()
	plain.err = broken
	w = newDirectWriter(direct, plain)
	if _, err := w.Write([]byte("short")); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); !errors.Is(err, broken) {
		t.Fatalf("Flush of a part block through a broken plain descriptor: %v, want %v", err, broken)
	}
}
