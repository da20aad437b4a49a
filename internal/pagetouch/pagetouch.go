// Package pagetouch makes the kernel map the pages of a new array by
// writing to them, before the garbage collector reads them.
//
// A large array of pointers (trajectories, strings) fresh from the system
// is often read before it is written: the collector scans the whole array,
// capacity included, and during a collection every bulk copy into it reads
// the old pointers first (the write barrier). Linux maps each page so read
// to its shared zero page; the first write then copies the page and, the
// process running on several processors, interrupts them all to flush
// their TLBs. In a virtual machine that costs about 12 µs a page: 800 pages
// took 10 ms of a 150 ms run of `rewardlens compute` on 100k trajectories.
// A page first written is mapped once, with none of that.
package pagetouch

import (
	"os"
	"sync/atomic"
	"unsafe"
)

// minBytes is the size below which Slice does nothing: a small array
// shares its pages with other objects, which are mapped already.
const minBytes = 64 << 10

var pageSize = uintptr(os.Getpagesize())

// Slice writes to every page that the array behind s occupies up to
// cap(s) (whole pages only), leaving its contents as they are: it adds 0
// to one aligned word per page, atomically, so that a word holding a
// pointer is never seen half written. Call it on an array just made, before
// filling it.
func Slice[T any](s []T) {
	var zero T
	size := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if size < minBytes {
		return
	}
	base := unsafe.Pointer(unsafe.SliceData(s))
	for off := (pageSize - uintptr(base)%pageSize) % pageSize; off+4 <= size; off += pageSize {
		atomic.AddUint32((*uint32)(unsafe.Add(base, off)), 0)
	}
}
