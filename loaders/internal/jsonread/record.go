package jsonread

import "github.com/rewardlens/rewardlens/internal/jsonscan"

// member is one member of a JSON object: its key (quoted) and its value, as
// raw text.
type member struct{ key, value []byte }

// objectRecord is what scan records of a JSON object while checking it:
// its members and, when the value of its last member keyed "metadata"
// (without escapes) is an object, that value and its members. A walk over
// the object then need not scan the text again.
type objectRecord struct {
	members   []member
	metaValue []byte
	meta      []member
}

// scan reports, as jsonscan.Valid does, whether b is one valid JSON value,
// and records its members when it is an object (else r.members is nil).
func (r *objectRecord) scan(b []byte) bool {
	r.members, r.metaValue, r.meta = r.members[:0], nil, r.meta[:0]
	i := jsonscan.SkipSpace(b)
	if i >= len(b) || b[i] != '{' {
		r.members = nil
		return jsonscan.Valid(b)
	}
	i, ok := r.object(b, i)
	return ok && i+jsonscan.SkipSpace(b[i:]) == len(b)
}

// object checks the object that starts at b[i], at depth 1, appending its
// members to r.members, and the members of its metadata, when an object, to
// r.meta.
func (r *objectRecord) object(b []byte, i int) (int, bool) {
	return jsonscan.Object(b, i, func(key []byte, i int) (int, bool) {
		start := i
		var ok bool
		if string(key) == `"metadata"` {
			r.metaValue = nil
			if i < len(b) && b[i] == '{' {
				r.meta = r.meta[:0]
				i, ok = jsonscan.Object(b, i, func(key []byte, i int) (int, bool) {
					start := i
					i, ok := jsonscan.ValidValue(b, i, 2)
					r.meta = append(r.meta, member{key: key, value: b[start:i]})
					return i, ok
				})
				if ok {
					r.metaValue = b[start:i]
				}
			} else {
				i, ok = jsonscan.ValidValue(b, i, 1)
			}
		} else {
			i, ok = jsonscan.ValidValue(b, i, 1)
		}
		r.members = append(r.members, member{key: key, value: b[start:i]})
		return i, ok
	})
}
