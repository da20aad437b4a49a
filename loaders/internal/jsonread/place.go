package jsonread

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
)

// The functions here find where, in valid JSON text, the value is that
// made an object no trajectory, so that the error can give its column as
// well as its line: an editor jumps to "PATH:LINE:COL". They run only on
// the error path, so they repeat work rather than slow down reading.

// badValue returns the value of o that trajectory reports an error about:
// the first field, in trajectoryFields order, that cannot be set, or within
// the metadata the member the error names. It is nil when no field fails.
func badValue(o jsonText) []byte {
	plain := jsonText{obj: o.obj, rewritten: o.rewritten} // no record, no interner
	var raws [len(trajectoryFields)][]byte
	for key, raw := range jsonscan.Members(plain.obj) {
		if f := trajectoryFieldIndex(key); f >= 0 {
			raws[f] = raw // the last of duplicate keys wins, as in trajectory
		}
	}
	for f, raw := range raws {
		if raw == nil || string(raw) == "null" {
			continue
		}
		t := scoring.Trajectory{Metadata: map[string]any{}}
		err := trajectoryFields[f].set(&t, plain.value(raw))
		if err == nil {
			continue
		}
		var member *MemberError
		if errors.As(err, &member) && raw[0] == '{' {
			if v := lastMember(raw, member.Key); v != nil {
				return v
			}
		}
		return raw
	}
	return nil
}

// lastMember returns the value of the last member of obj keyed key, nil if
// none: of duplicate keys the last one is read.
func lastMember(obj []byte, key string) []byte {
	var found []byte
	for k, v := range jsonscan.Members(obj) {
		if unquote(k) == key {
			found = v
		}
	}
	return found
}

// offsetIn returns the offset of inner in outer when inner is a part of
// outer (the same memory), and false otherwise: a slice shares its array
// with the text it was cut from, so the distance between their ends is the
// offset.
func offsetIn(outer, inner []byte) (int, bool) {
	off := cap(outer) - cap(inner)
	if len(inner) == 0 || off < 0 || off+len(inner) > len(outer) || &outer[off] != &inner[0] {
		return 0, false
	}
	return off, true
}

// lineValueColumn returns the 1-based column, in line, of the value that
// made obj (decoded from line) no trajectory, or 0 when it cannot tell.
func lineValueColumn(line []byte, obj jsonText) int {
	bad := badValue(obj)
	if bad == nil {
		return 0
	}
	if off, ok := offsetIn(line, bad); ok {
		return off + 1
	}
	if !obj.rewritten {
		return 0
	}
	// obj is the line with its non-finite tokens rewritten, in another
	// buffer: the rewriter, run again, maps the offset back to the line.
	inObj, ok := offsetIn(obj.obj, bad)
	if !ok {
		return 0
	}
	rw := jsonscan.NewRewriter(bufio.NewReader(bytes.NewReader(line)), 0)
	text, _ := io.ReadAll(rw) // reading bytes cannot fail
	_, col := rw.Locate(int64(jsonscan.SkipSpace(text) + inObj))
	return col
}
