package jsonread

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// jsonText is the text of a valid JSON object; rewritten says whether it
// comes from a rewriter, so that its markers stand for non-finite numbers (in
// text that was not rewritten, a string holding 0xFF is just a string).
type jsonText struct {
	obj       []byte
	rewritten bool
	// in, when not nil, shares the strings that repeat from object to
	// object (metadata keys, groups).
	in *interner
	// recorded, when not nil, holds the members of obj, recorded as it was
	// checked, and rec the record it comes from (for the metadata).
	recorded []member
	rec      *objectRecord
}

// DecodeObject checks that text is one JSON object. When text is not valid
// JSON, it tries again with the non-finite tokens rewritten. The error is a
// *LineError with the column (1-based, in text) of a syntax error and no
// path or line.
func DecodeObject(text []byte) (jsonText, *input.LineError) {
	return decodeObjectRecord(text, nil)
}

// decodeObjectRecord is DecodeObject recording, when rec is not nil, the
// members of the object as it checks it, so that reading them needs no
// second walk over the text.
func decodeObjectRecord(text []byte, rec *objectRecord) (jsonText, *input.LineError) {
	if rec != nil && rec.scan(text) {
		o, err := objectOrError(text, false)
		if err == nil && rec.members != nil {
			o.recorded, o.rec = rec.members, rec
		}
		return o, err
	}
	if rec == nil && jsonscan.Valid(text) {
		return objectOrError(text, false)
	}
	rw := jsonscan.NewRewriter(bufio.NewReader(bytes.NewReader(text)), 0)
	rewritten, _ := io.ReadAll(rw) // reading bytes cannot fail
	if !rw.Rewrote() {
		return jsonText{}, syntaxError(text, nil)
	}
	if _, stray := rw.Stray(0, int64(len(rewritten))); stray || !jsonscan.ValidRewritten(rewritten) {
		return jsonText{}, syntaxError(rewritten, rw)
	}
	return objectOrError(rewritten, true)
}

// syntaxError returns the error of text, which is not valid JSON or not
// UTF-8, with its column, mapped back to the input by rw when not nil (text
// is then rw's output): the first of encoding/json's syntax error and a
// byte of a string that is not UTF-8, which encoding/json takes.
func syntaxError(text []byte, rw *jsonscan.Rewriter) *input.LineError {
	var syntax *json.SyntaxError
	isSyntax := errors.As(json.Unmarshal(text, new(json.RawMessage)), &syntax)
	bad, badByte := -1, byte(0)
	if lerr := utf8Error(text, rw != nil); lerr != nil {
		bad, badByte = lerr.Col-1, text[lerr.Col-1]
	}
	if rw != nil {
		if off, ok := rw.Stray(0, int64(len(text))); ok && (bad < 0 || int(off) < bad) {
			bad, badByte = int(off), 0xFF
		}
	}
	// A bad byte outside a string is the syntax error's own byte.
	if bad >= 0 && (!isSyntax || int64(bad) < syntax.Offset-1) {
		col := bad + 1
		if rw != nil {
			_, col = rw.Locate(int64(bad))
		}
		return &input.LineError{Col: col, Msg: input.InvalidUTF8(badByte)}
	}
	if !isSyntax {
		return &input.LineError{Msg: "invalid JSON"} // not reached: text is not valid
	}
	col := int(syntax.Offset) // the scanner has read the bad byte
	if rw != nil {
		_, col = rw.Locate(syntax.Offset - 1)
	}
	return &input.LineError{Col: col, Msg: "invalid JSON: " + jsonscan.ReadableSyntax(syntax.Error(), jsonscan.TextFrom(text, syntax.Offset-1))}
}

// objectOrError returns valid JSON text as an object, or the error that it
// is not one. Text from encoding/json's decoder, which takes any byte in a
// string, is held to UTF-8 here as jsonscan holds the rest (the error's
// column is then the bad byte's, 1-based in text).
func objectOrError(text []byte, rewritten bool) (jsonText, *input.LineError) {
	if lerr := utf8Error(text, rewritten); lerr != nil {
		return jsonText{}, lerr
	}
	v := trimSpaceRight(text[jsonscan.SkipSpace(text):])
	if len(v) == 0 || v[0] != '{' {
		return jsonText{}, &input.LineError{Msg: "expected a JSON object, found " + describe(v, rewritten)}
	}
	return jsonText{obj: v, rewritten: rewritten}, nil
}

// utf8Error returns the error of the first byte of text that is not
// UTF-8, its column that byte's (1-based, in text), or nil. In rewritten
// text a 0xFF is a marker's (jsonscan.NonFinite): the rewriter escapes
// the input's own (jsonscan.Rewriter.Stray finds them).
func utf8Error(text []byte, rewritten bool) *input.LineError {
	if !rewritten {
		return input.UTF8Error(text)
	}
	if utf8.Valid(text) {
		return nil
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 && text[i] != 0xFF {
			return &input.LineError{Col: i + 1, Msg: input.InvalidUTF8(text[i])}
		}
		i += size
	}
	return nil
}

// trimSpaceRight returns b without trailing JSON white space.
func trimSpaceRight(b []byte) []byte {
	for len(b) > 0 && jsonscan.IsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// trajectory sets the fields of t from the object o (docs/CONTRACT.md, Trajectories).
// Of duplicate keys the last wins, as in Python and encoding/json; null
// stands for an absent field, and the other fields go into the metadata
// (topLevelMetadata). The error
// names the field; of several bad fields, it is about the first in
// trajectoryFields.
func (o jsonText) trajectory(t *scoring.Trajectory) error {
	var raws [len(trajectoryFields)][]byte
	var extra []member // the other fields, for the metadata (toplevel.go)
	o.eachMember(func(key, raw []byte) {
		if f := trajectoryFieldIndex(key); f >= 0 {
			raws[f] = raw
		} else {
			extra = append(extra, member{key: key, value: raw})
		}
	})
	for f, raw := range raws {
		if raw == nil || string(raw) == "null" {
			continue
		}
		if err := trajectoryFields[f].set(t, o.value(raw)); err != nil {
			var member *MemberError
			if errors.As(err, &member) {
				return err
			}
			return fmt.Errorf("%s: %w", trajectoryFields[f].name, err)
		}
	}
	if len(extra) > 0 {
		return o.topLevelMetadata(t.Metadata, extra)
	}
	return nil
}

// trajectoryFieldIndex returns the index in trajectoryFields of the field
// whose name key, a raw JSON string, holds, or -1.
func trajectoryFieldIndex(key []byte) int {
	if f := fieldIndex(key[1 : len(key)-1]); f >= 0 || bytes.IndexByte(key, '\\') < 0 {
		return f // without escapes, the raw text is the name
	}
	return fieldIndex([]byte(unquote(key))) // rare enough to unquote
}

// fieldIndex returns the index in trajectoryFields of the field called
// name, or -1: the one name fieldSlot gives is the only one to compare
// with (comparing with each in turn was a few percent of reading a line).
func fieldIndex(name []byte) int {
	if len(name) == 0 {
		return -1
	}
	f := fieldSlots[fieldSlot(name)]
	if f < 0 || string(name) != trajectoryFields[f].name {
		return -1
	}
	return int(f)
}

// fieldSlot returns the slot in fieldSlots of a name that is not empty:
// its length plus its first byte, which differ for every field's name
// (TestFieldSlots).
func fieldSlot[T string | []byte](name T) int {
	return (len(name) + int(name[0])) % fieldSlotCount
}

// fieldSlotCount is the number of slots in fieldSlots.
const fieldSlotCount = 32

// fieldSlots holds, at the slot of each field's name, the field's index in
// trajectoryFields, and -1 elsewhere.
var fieldSlots = func() (slots [fieldSlotCount]int8) {
	for i := range slots {
		slots[i] = -1
	}
	for i, f := range trajectoryFields {
		slots[fieldSlot(f.name)] = int8(i)
	}
	return slots
}()

// trajectoryFields are the fields of a trajectory object and how to set them.
var trajectoryFields = [...]struct {
	name string
	set  func(t *scoring.Trajectory, v jsonValue) error
}{
	{"id", func(t *scoring.Trajectory, v jsonValue) error {
		s, err := v.text()
		if s != "" { // an empty id is as good as none, as in CSV
			t.ID = s
		}
		return err
	}},
	{"batch", func(t *scoring.Trajectory, v jsonValue) (err error) {
		t.Batch, err = v.integer()
		return err
	}},
	{"group", func(t *scoring.Trajectory, v jsonValue) (err error) {
		if v.in != nil && v.isString() {
			t.Group = v.in.group(v.raw)
			return nil
		}
		t.Group, err = v.text()
		return err
	}},
	{"step_count", func(t *scoring.Trajectory, v jsonValue) (err error) {
		t.StepCount, err = v.count()
		return err
	}},
	{"response", func(t *scoring.Trajectory, v jsonValue) error {
		t.Response = v.response()
		return nil
	}},
	{"done", func(t *scoring.Trajectory, v jsonValue) (err error) {
		t.Done, err = v.bool()
		return err
	}},
	{"metadata", func(t *scoring.Trajectory, v jsonValue) error {
		return v.metadata(t.Metadata)
	}},
}

// value returns raw, a value of o.
func (o jsonText) value(raw []byte) jsonValue {
	return jsonValue{raw: raw, rewritten: o.rewritten, in: o.in, rec: o.rec}
}

// eachMember calls f with each key and value of o, in order, from its
// record when it has one. (A plain loop: an iterator would cost an
// allocation per object.)
func (o jsonText) eachMember(f func(key, value []byte)) {
	if o.recorded != nil {
		for _, m := range o.recorded {
			f(m.key, m.value)
		}
		return
	}
	for key, value := range jsonscan.Members(o.obj) {
		f(key, value)
	}
}

// jsonValue is the raw text of one valid JSON value, not null.
type jsonValue struct {
	raw       []byte
	rewritten bool
	in        *interner     // see jsonText
	rec       *objectRecord // the record of the object holding the value
	// owned reports that raw's array is the trajectory's own, never
	// reused (input.Block.Owned): response keeps raw rather than a copy.
	owned bool
}

// marker returns the index in nonFinite of the marker v is, or -1.
func (v jsonValue) marker() int {
	if !v.rewritten {
		return -1
	}
	return jsonscan.MarkerIndex(v.raw)
}

// isNumber reports whether v is a number (a marker is one).
func (v jsonValue) isNumber() bool {
	c := v.raw[0]
	return c == '-' || (c >= '0' && c <= '9') || v.marker() >= 0
}

// isString reports whether v is a string (a marker is not).
func (v jsonValue) isString() bool {
	return v.raw[0] == '"' && v.marker() < 0
}

// text returns a string, or the text of a number as written.
func (v jsonValue) text() (string, error) {
	switch {
	case v.isString():
		return unquote(v.raw), nil
	case v.isNumber():
		return v.numberText(), nil
	}
	return "", fmt.Errorf("must be a string or a number, found %s", v)
}

// numberText returns the text of a number as written.
func (v jsonValue) numberText() string {
	if i := v.marker(); i >= 0 {
		return jsonscan.NonFinite[i].Token
	}
	return string(v.raw)
}

// integer returns an integral number, such as 3 or 3.0.
func (v jsonValue) integer() (int64, error) {
	if n, ok := jsonscan.SmallInteger(v.raw); ok { // the usual case, never a marker
		return n, nil
	}
	if !v.isNumber() || v.marker() >= 0 {
		return 0, fmt.Errorf("must be an integer, found %s", v)
	}
	n, err := jsonscan.ParseInteger(string(v.raw))
	if err != nil {
		return 0, fmt.Errorf("%w, found %s", err, v)
	}
	return n, nil
}

// count returns an integer >= 0.
func (v jsonValue) count() (int64, error) {
	n, err := v.integer()
	if err == nil && n < 0 {
		err = fmt.Errorf("must be an integer >= 0, found %s", v)
	}
	return n, err
}

// bool returns true or false.
func (v jsonValue) bool() (bool, error) {
	switch string(v.raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("must be true or false, found %s", v)
}

// response returns a copy of v as written, as the raw JSON of a response:
// the tokens NaN, Infinity and -Infinity stay as they were written (so the
// response is not strict JSON then), and only a 0xFF byte inside a string
// of rewritten text reads as the escape \ufffd, which has the same value.
func (v jsonValue) response() json.RawMessage {
	raw := v.raw
	if !v.owned {
		raw = bytes.Clone(raw)
	}
	if v.rewritten {
		raw = jsonscan.RestoreTokens(raw)
	}
	return raw
}

// metadata adds the members of v, an object whose values are numbers,
// strings, bools or null, to m.
func (v jsonValue) metadata(m map[string]any) error {
	if v.raw[0] != '{' {
		return fmt.Errorf("must be an object, found %s", v)
	}
	o := jsonText{obj: v.raw, rewritten: v.rewritten, in: v.in}
	if r := v.rec; r != nil && len(r.metaValue) == len(v.raw) && &r.metaValue[0] == &v.raw[0] {
		o.recorded = r.meta // the recorded metadata is this value
	}
	return o.AddMetadata(m)
}

// AddMetadata adds the members of the metadata object o to m. Of duplicate
// keys the last wins, as in Python, and a bad value that a later one
// replaces is no error; of several bad values, the error is about the first.
func (o jsonText) AddMetadata(m map[string]any) error {
	var bad []*MemberError
	k := 0
	o.eachMember(func(rawKey, raw []byte) {
		key := o.in.key(rawKey, k)
		k++
		if len(bad) > 0 {
			bad = slices.DeleteFunc(bad, func(e *MemberError) bool { return e.Key == key })
		}
		x, err := o.value(raw).scalar()
		if err != nil {
			bad = append(bad, &MemberError{Key: key, Err: err})
			return
		}
		m[key] = x
	})
	if len(bad) > 0 {
		return bad[0]
	}
	return nil
}

// MemberError is a problem with one member of the metadata object.
type MemberError struct {
	Key string
	Err error
}

func (e *MemberError) Error() string {
	return "metadata." + e.Key + ": " + e.Err.Error()
}

// scalar returns a metadata value: a number as float64, a string, a bool or
// nil for null.
func (v jsonValue) scalar() (any, error) {
	switch c := v.raw[0]; {
	case c == 'n':
		return nil, nil
	case c == 't' || c == 'f':
		return c == 't', nil
	case v.isString():
		return unquote(v.raw), nil
	case v.marker() >= 0:
		return jsonscan.NonFinite[v.marker()].Value, nil
	case v.isNumber():
		return jsonscan.ParseFloat(string(v.raw)), nil
	}
	return nil, fmt.Errorf("must be a number, string, bool or null, found %s", v)
}

// String describes v for messages: objects and arrays by their kind,
// anything else as written, shortened.
func (v jsonValue) String() string {
	switch {
	case v.raw[0] == '{':
		return "an object"
	case v.raw[0] == '[':
		return "an array"
	case v.isNumber():
		return textsafe.Shorten(v.numberText())
	}
	return textsafe.Shorten(string(v.raw))
}

// describe describes raw JSON text, which may be empty, for messages.
func describe(raw []byte, rewritten bool) string {
	if len(raw) == 0 {
		return "nothing"
	}
	return jsonValue{raw: raw, rewritten: rewritten}.String()
}

// interner shares the strings that repeat from line to line, so that a
// million trajectories do not hold a million copies of each metadata key
// and group. It is used by one goroutine; the nil *interner shares nothing.
type interner struct {
	keys map[string]internedKey // by raw key text (quoted)
	// byPosition[k] is the key last found k-th in its object: as the keys
	// of the metadata usually come in the same order on every line,
	// comparing raw text with it spares hashing it for the map.
	byPosition []internedKey
	// The last group: its raw text and its value.
	groupRaw []byte
	groupVal string
}

// internedKey is a metadata key: its raw text (quoted) and its value.
type internedKey struct{ raw, value string }

// maxInternedKeys bounds the keys an interner keeps, and the positions it
// remembers them at: data with ever new metadata keys only costs a lookup
// per key.
const maxInternedKeys = 4096

// key returns the value of raw, a valid JSON string used as a metadata key,
// the k-th (0-based) member of its object.
func (in *interner) key(raw []byte, k int) string {
	if in == nil {
		return unquote(raw)
	}
	if k < len(in.byPosition) && in.byPosition[k].raw == string(raw) {
		return in.byPosition[k].value
	}
	e, ok := in.keys[string(raw)]
	if !ok {
		if len(in.keys) >= maxInternedKeys {
			return unquote(raw)
		}
		if in.keys == nil {
			in.keys = map[string]internedKey{}
		}
		e = internedKey{raw: string(raw), value: unquote(raw)}
		in.keys[e.raw] = e
	}
	if k < maxInternedKeys {
		for len(in.byPosition) <= k {
			in.byPosition = append(in.byPosition, internedKey{})
		}
		in.byPosition[k] = e
	}
	return e.value
}

// group returns the value of raw, a valid JSON string that is not a
// marker: the previous value when raw repeats the previous group, as the
// trajectories of one group usually follow each other.
func (in *interner) group(raw []byte) string {
	if in.groupRaw == nil || !bytes.Equal(raw, in.groupRaw) {
		in.groupRaw = append(in.groupRaw[:0], raw...)
		in.groupVal = unquote(raw)
	}
	return in.groupVal
}

// unquote returns the value of raw, a valid JSON string.
func unquote(raw []byte) string {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body) // the common case, much faster than Unmarshal
	}
	var s string
	json.Unmarshal(raw, &s) // cannot fail: raw is a valid string
	return s
}
