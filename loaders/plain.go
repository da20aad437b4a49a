package loaders

import "github.com/rewardlens/rewardlens/engine"

// A JSONL line usually takes no detour: it is valid JSON, its metadata is an
// object of numbers, strings, bools and nulls, and no field is wrong. Such a
// plain line is read here in one pass that checks the text as it reads the
// trajectory, where the general path (decodeObjectRecord, then
// jsonText.trajectory) checks the line, records its members, then reads
// them, and parses each metadata number after checking it. Whatever is not
// plain makes parsePlain give up, and the line goes the general path, which
// alone reports errors: so a line reads the same either way
// (TestPlainMatchesGeneral, FuzzPlainLine).

// metadataField is the index of "metadata" in trajectoryFields.
var metadataField = trajectoryFieldIndex([]byte(`"metadata"`))

// parsePlain sets the fields of t, whose Metadata is empty, from line when
// the line is plain, and reports whether it was. When it was not, t and its
// metadata may be partly set.
func (p *lineParser) parsePlain(line []byte, t *engine.Trajectory) bool {
	var raws [len(trajectoryFields)][]byte // as in jsonText.trajectory
	i := skipSpace(line)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i, ok := p.plainObject(line, i, &raws, t.Metadata)
	if !ok || i+skipSpace(line[i:]) != len(line) {
		return false
	}
	for f, raw := range raws {
		switch {
		case raw == nil || string(raw) == "null": // absent
		case f == metadataField:
			if raw[0] != '{' {
				return false // an error
			}
			// plainObject read it
		case trajectoryFields[f].set(t, jsonValue{raw: raw, in: &p.in}) != nil:
			return false
		}
	}
	return true
}

// plainObject checks the trajectory object that starts at b[i] as
// validObject does, and returns the index just past it. It sets raws[f] to
// the value of each field f, the last of duplicates as in
// jsonText.trajectory, but adds the members of the metadata, when an
// object, to m as it checks them. It reports false when the metadata is
// given twice, as m then holds the members of the first.
//
// The walk is validObject's, with each member read as it is checked: a
// near-copy, for the hot path of reading JSONL.
func (p *lineParser) plainObject(b []byte, i int, raws *[len(trajectoryFields)][]byte, m map[string]any) (int, bool) {
	i++
	i += skipSpace(b[i:])
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		start := i
		var ok bool
		if i, ok = validString(b, i); !ok {
			return i, false
		}
		f := trajectoryFieldIndex(b[start:i])
		i += skipSpace(b[i:])
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		i += skipSpace(b[i:])
		start = i
		switch {
		case f == metadataField && raws[f] != nil:
			return i, false
		case f == metadataField && i < len(b) && b[i] == '{':
			i, ok = p.plainMetadata(b, i, m)
		default:
			i, ok = validValue(b, i, 1)
		}
		if !ok {
			return i, false
		}
		if f >= 0 {
			raws[f] = b[start:i]
		}
		i += skipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += skipSpace(b[i:])
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// plainMetadata adds to m the members of the metadata object that starts at
// b[i], checking its text as validObject does, and returns the index just
// past it. It reports false as soon as a value is not a number, string,
// bool or null. (Another near-copy of validObject, for the same reason.)
func (p *lineParser) plainMetadata(b []byte, i int, m map[string]any) (int, bool) {
	i++
	i += skipSpace(b[i:])
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for k := 0; ; k++ {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		start := i
		var ok bool
		if i, ok = validString(b, i); !ok {
			return i, false
		}
		key := p.in.key(b[start:i], k)
		i += skipSpace(b[i:])
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		i += skipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		var x any
		switch c := b[i]; {
		case c == '-' || isDigit(c):
			var f float64
			i, f, ok = number(b, i)
			x = f
		case c == '"':
			start = i
			if i, ok = validString(b, i); ok {
				x = unquote(b[start:i])
			}
		case c == 't':
			i, ok = validLiteral(b, i, "true")
			x = true
		case c == 'f':
			i, ok = validLiteral(b, i, "false")
			x = false
		case c == 'n':
			i, ok = validLiteral(b, i, "null")
		default:
			return i, false
		}
		if !ok {
			return i, false
		}
		m[key] = x
		i += skipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += skipSpace(b[i:])
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}
