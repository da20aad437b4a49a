//go:build !unix

package testkit

import "time"

// CPUTime panics where the process's CPU time is not read (getrusage is
// Unix's): the benchmarks that report it run on Unix; the tests of the
// packages that import testkit still build.
func CPUTime() time.Duration {
	panic("testkit: CPUTime reads getrusage, which this system lacks")
}
