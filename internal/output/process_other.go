//go:build !unix

package output

// processGone reports that whether a process is gone is not known where
// processes cannot be signalled: no temporary file is taken for stale.
func processGone(int) bool { return false }
