package pagetouch

import (
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident returns how many of the whole pages that s's array occupies up
// to cap(s) are in memory.
func resident[T any](t *testing.T, s []T) (in, pages int) {
	var zero T
	size := uintptr(cap(s)) * unsafe.Sizeof(zero)
	page := uintptr(os.Getpagesize())
	base := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo, hi := (base+page-1)/page*page, (base+size)/page*page
	vec := make([]byte, (hi-lo)/page)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, lo, hi-lo, uintptr(unsafe.Pointer(unsafe.SliceData(vec)))); errno != 0 {
		t.Fatalf("mincore: %v", errno)
	}
	for _, v := range vec {
		in += int(v & 1)
	}
	return in, len(vec)
}

// TestSliceMapsPages checks that every page of a new array is in memory
// once touched, where most were not before.
func TestSliceMapsPages(t *testing.T) {
	s := make([]*int, 0, 8<<20) // 64 MB: more than the heap has used yet
	if in, pages := resident(t, s); in > pages/2 {
		t.Skipf("%d of %d pages of the new array are in memory already", in, pages)
	}
	Slice(s)
	if in, pages := resident(t, s); in != pages {
		t.Fatalf("%d of %d pages in memory after Slice", in, pages)
	}
}
