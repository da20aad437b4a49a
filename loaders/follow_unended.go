package loaders

import (
	"fmt"
	"strconv"
	"time"
)

// DefaultUnendedWait is the default FollowOptions.UnendedWait: far longer
// than a writer takes to end a line it is writing, short enough that a
// run that looks stalled is explained.
const DefaultUnendedWait = 5 * time.Second

// Unended is a followed file (JSONL or CSV; gzipped, its stream cut
// short) whose last line has no line end: it is not read until it has
// one, as it may be half written.
type Unended struct {
	Path string
	// Line is the number of the last line, Bytes how many bytes of it
	// are written.
	Line  int
	Bytes int64
	// For is how long it has stayed so, unchanged.
	For time.Duration
}

// String reads "PATH:LINE: the last line has no line end after 5 s (57
// bytes waiting); not read until it ends".
func (u Unended) String() string {
	return fmt.Sprintf("%s:%d: the last line has no line end after %s s (%s waiting); not read until it ends", u.Path, u.Line, seconds(u.For), byteCount(u.Bytes))
}

// seconds writes d in seconds, to a tenth.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64)
}

// byteCount writes "1 byte", "57 bytes".
func byteCount(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// noteUnended records what the file's last read left after its last line
// end: bytes of line number line (none when bytes <= 0). A change of it
// starts its wait again, and a change of one said (Update.Unended) is to
// be told (resumed, Update.Resumed).
func (f *followedFile) noteUnended(line int, bytes int64) {
	if bytes <= 0 {
		line, bytes = 0, 0
	}
	if line == f.unended.Line && bytes == f.unended.Bytes {
		return
	}
	f.resumed = f.resumed || f.unendedSaid
	f.unended = Unended{Path: f.path, Line: line, Bytes: bytes}
	f.unendedSince, f.unendedSaid = time.Now(), false
}

// sayUnended queues the files whose last line has stayed without its line
// end, unchanged, for opts.UnendedWait since it was read, each once
// (Update.Unended).
func (f *follower) sayUnended(now time.Time) {
	for _, ff := range f.files {
		if ff.unended.Bytes > 0 && !ff.unendedSaid && now.Sub(ff.unendedSince) >= f.opts.UnendedWait {
			ff.unendedSaid = true
			u := ff.unended
			u.For = f.opts.UnendedWait
			f.note(ff, fileChange{unended: &u})
		}
	}
}

// unendedAtEnd returns the files whose last line has no line end as of
// their last read, however long it has been so: at the end of following,
// those lines were never read.
func (f *follower) unendedAtEnd(now time.Time) []Unended {
	var out []Unended
	for _, ff := range f.files {
		if ff.unended.Bytes > 0 {
			u := ff.unended
			u.For = now.Sub(ff.unendedSince)
			out = append(out, u)
		}
	}
	return out
}
