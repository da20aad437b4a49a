package jsonread

import (
	"bytes"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
)

// A JSONL line usually takes no detour: it is valid JSON, its metadata is an
// object of numbers, strings, bools and nulls, and no field is wrong. Such a
// plain line is read here in one pass that checks the text as it reads the
// trajectory, where the general path (decodeObjectRecord, then
// jsonText.trajectory) checks the line, records its members, then reads
// them, and parses each metadata number after checking it. Whatever is not
// plain makes parsePlain give up, and the line goes the general path, which
// alone reports errors: so a line reads the same either way
// (TestPlainMatchesGeneral, FuzzPlainLine).

// metadataField and responseField are the indices of "metadata" and
// "response" in trajectoryFields.
var (
	metadataField = trajectoryFieldIndex([]byte(`"metadata"`))
	responseField = trajectoryFieldIndex([]byte(`"response"`))
)

// parsePlain sets the fields of t, whose Metadata is empty, from line when
// the line is plain, and reports whether it was. When it was not, t and its
// metadata may be partly set.
func (p *lineParser) parsePlain(line []byte, t *scoring.Trajectory) bool {
	var raws [len(trajectoryFields)][]byte // as in jsonText.trajectory
	i := jsonscan.SkipSpace(line)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	p.extra = p.extra[:0]
	i, ok := p.plainObject(line, i, &raws, t)
	if !ok || i+jsonscan.SkipSpace(line[i:]) != len(line) {
		return false
	}
	if len(p.extra) > 0 && !p.plainExtras(t, raws[metadataField]) {
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
		case f == responseField && t.Pick != nil && !t.Pick.Response:
			// not asked for; setting a response fails on nothing
		case trajectoryFields[f].set(t, jsonValue{raw: raw, in: &p.in, owned: p.owned}) != nil:
			return false
		}
	}
	return true
}

// plainObject checks the trajectory object that starts at b[i] as
// jsonscan.Valid does, and returns the index just past it. It sets raws[f]
// to the value of each field f, the last of duplicates as in
// jsonText.trajectory, records the other members in p.extra, but reads the
// members of the metadata, when an
// object, into t (plainMetadata) as it checks them. It reports false when
// the metadata is given twice, as t then holds the members of the first.
//
// The walk is jsonscan.Object's, with each member read as it is checked:
// a near-copy, for the hot path of reading JSONL: sharing Object, with
// a call of a function per member, made reading measurably slower
// (BENCHMARKS.md, "Issue 14").
func (p *lineParser) plainObject(b []byte, i int, raws *[len(trajectoryFields)][]byte, t *scoring.Trajectory) (int, bool) {
	i++
	i += jsonscan.SkipSpace(b[i:])
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		start := i
		var ok bool
		if i, ok = jsonscan.ValidString(b, i); !ok {
			return i, false
		}
		key := b[start:i]
		f := trajectoryFieldIndex(key)
		i += jsonscan.SkipSpace(b[i:])
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		i += jsonscan.SkipSpace(b[i:])
		start = i
		switch {
		case f == metadataField && raws[f] != nil:
			return i, false
		case f == metadataField && i < len(b) && b[i] == '{':
			i, ok = p.plainMetadata(b, i, t)
		default:
			i, ok = jsonscan.ValidValue(b, i, 1)
		}
		if !ok {
			return i, false
		}
		if f >= 0 {
			raws[f] = b[start:i]
		} else {
			p.extra = append(p.extra, member{key: key, value: b[start:i]})
		}
		i += jsonscan.SkipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += jsonscan.SkipSpace(b[i:])
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// plainMetadata reads the members of the metadata object that starts at
// b[i] into t, checking its text as jsonscan.Valid does, and returns the index
// just past it: into t.Metadata, or, when t.Pick is set, the picked keys'
// values into t.Picked. It reports false as soon as a value is not a
// number, string, bool or null, or a picked key would need unescaping.
// (Another near-copy of jsonscan.Object, for the same reason.)
func (p *lineParser) plainMetadata(b []byte, i int, t *scoring.Trajectory) (int, bool) {
	i++
	i += jsonscan.SkipSpace(b[i:])
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for k := 0; ; k++ {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		start := i
		var ok bool
		if i, ok = jsonscan.ValidString(b, i); !ok {
			return i, false
		}
		key := b[start:i]
		i += jsonscan.SkipSpace(b[i:])
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		i += jsonscan.SkipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		// x is the value for Metadata: a picked one is not boxed.
		var x any
		var text []byte // a string's, quoted
		v := scoring.PickedValue{Kind: scoring.PickedOther}
		switch c := b[i]; {
		case c == '-' || isDigit(c):
			i, v.Number, ok = jsonscan.Number(b, i)
			v.Kind = scoring.PickedNumber
		case c == '"':
			start = i
			if i, ok = jsonscan.ValidString(b, i); ok && t.Pick == nil {
				x = unquote(b[start:i])
			}
			text = b[start:i]
		case c == 't': // a bool counts 1 or 0 when picked
			i, ok = jsonscan.ValidLiteral(b, i, "true")
			x, v.Number, v.Kind = true, 1, scoring.PickedNumber
		case c == 'f':
			i, ok = jsonscan.ValidLiteral(b, i, "false")
			x, v.Kind = false, scoring.PickedNumber
		case c == 'n':
			i, ok = jsonscan.ValidLiteral(b, i, "null")
			v.Kind = scoring.PickedAbsent
		default:
			return i, false
		}
		if !ok {
			return i, false
		}
		switch {
		case t.Pick != nil:
			if !p.setPicked(t, key, v, text) {
				return i, false
			}
		case x == nil && v.Kind == scoring.PickedNumber:
			t.Metadata[p.in.key(key, k)] = v.Number
		default:
			t.Metadata[p.in.key(key, k)] = x
		}
		i += jsonscan.SkipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += jsonscan.SkipSpace(b[i:])
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// setPicked sets the value of the metadata key whose JSON string is key
// to v in t.Picked, if t.Pick names it (a string's, PickedOther, text is
// its JSON, kept unquoted: SetPickedOther), and reports whether it could
// tell: not for a key with escapes, which the general path unescapes.
func (p *lineParser) setPicked(t *scoring.Trajectory, key []byte, v scoring.PickedValue, text []byte) bool {
	name := key[1 : len(key)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		return false
	}
	if k, ok := p.pickIndex(t.Pick, name); ok {
		if v.Kind == scoring.PickedOther {
			t.SetPickedOther(k, unquote(text))
			return true
		}
		t.Picked[k] = v
		delete(t.PickedOthers, k) // a key given twice: the last value is its
	}
	return true
}

// maxPickScan is how many picked keys are looked through one by one; past
// it a map finds a key, so that a line of many keys with as many picked
// (objectives inferred from every field) costs the keys, not their square.
const maxPickScan = 8

// pickIndex returns the index of name in pick.Keys, which are unique
// (scoring.Pick): by a scan of a few keys, else by a map made once per
// Pick.
func (p *lineParser) pickIndex(pick *scoring.Pick, name []byte) (int, bool) {
	if len(pick.Keys) <= maxPickScan {
		for k, picked := range pick.Keys {
			if string(name) == picked {
				return k, true
			}
		}
		return 0, false
	}
	if p.indexOf != pick {
		p.indexOf, p.index = pick, make(map[string]int, len(pick.Keys))
		for k, key := range pick.Keys {
			p.index[key] = k
		}
	}
	k, ok := p.index[string(name)]
	return k, ok
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
