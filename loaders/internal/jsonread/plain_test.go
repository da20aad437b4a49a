package jsonread

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// generalTrajectory reads line the general way only, and returns the
// trajectory or the message of its error.
func generalTrajectory(line []byte) (scoring.Trajectory, string) {
	t := scoring.Trajectory{Done: true, Metadata: map[string]any{}, LoaderState: scoring.LoaderState{Line: 1}}
	obj, lerr := decodeObjectRecord(line, &objectRecord{})
	if lerr != nil {
		return t, lerr.Msg
	}
	if err := obj.trajectory(&t); err != nil {
		return t, err.Error()
	}
	return t, ""
}

// plainChecker checks that lineParser.parse reads lines, plain or not, as
// the general path does, reusing its metadata maps as Stream does: as they
// were handed over.
type plainChecker struct {
	p      lineParser
	plain  int // how many lines parsePlain read
	picked int // how many lines were read with a pick
}

// checkPicks are the picks that plainChecker reads each line with too:
// without the response and with it.
var checkPicks = []*scoring.Pick{
	{Keys: []string{"o1", "accuracy", "o2", "é", "", "absent"}},
	{Keys: []string{"o2"}, Response: true},
}

func newPlainChecker() *plainChecker {
	return &plainChecker{p: lineParser{l: &input.Loader{Maps: &input.MapStore{}}}}
}

func (c *plainChecker) check(t *testing.T, line []byte) {
	t.Helper()
	want, wantErr := generalTrajectory(line)
	probe := scoring.Trajectory{Metadata: map[string]any{}}
	if c.p.parsePlain(line, &probe) {
		c.plain++
		if wantErr != "" {
			t.Fatalf("%s: read plain, the general path fails: %s", line, wantErr)
		}
	}
	got, lerr := c.p.parse(line, input.BlockLine{No: 1}, nil, nil)
	switch {
	case lerr != nil && lerr.Msg != wantErr:
		t.Fatalf("%s: error %q, the general path says %q", line, lerr.Msg, wantErr)
	case lerr == nil && wantErr != "":
		t.Fatalf("%s: read %s, the general path fails: %s", line, brief(got), wantErr)
	case lerr == nil && brief(got) != brief(want):
		t.Fatalf("%s:\n got %s\nwant %s", line, brief(got), brief(want))
	}
	if lerr == nil {
		c.p.spare = append(c.p.spare, got.Metadata) // the next line reuses it
	}
	for _, pick := range checkPicks {
		c.checkPicked(t, line, pick, want, wantErr)
	}
}

// checkPicked checks that line reads with pick as the general path reads
// it, its picked values being those of the general path's metadata.
func (c *plainChecker) checkPicked(t *testing.T, line []byte, pick *scoring.Pick, want scoring.Trajectory, wantErr string) {
	t.Helper()
	got, lerr := c.p.parse(line, input.BlockLine{No: 1}, pick, make([]scoring.PickedValue, len(pick.Keys)))
	switch {
	case lerr != nil || wantErr != "":
		if lerr == nil || lerr.Msg != wantErr {
			t.Fatalf("%s: with a pick, error %v, the general path says %q", line, lerr, wantErr)
		}
		return
	case got.Pick == nil:
		if brief(got) != brief(want) {
			t.Fatalf("%s: with a pick, not picked:\n got %s\nwant %s", line, brief(got), brief(want))
		}
		c.p.spare = append(c.p.spare, got.Metadata)
		return
	}
	c.picked++
	if got.Pick != pick || got.Metadata != nil || len(got.Picked) != len(pick.Keys) {
		t.Fatalf("%s: picked with Pick %p (want %p), Metadata %v, %d values", line, got.Pick, pick, got.Metadata, len(got.Picked))
	}
	md := want.Metadata
	want.Metadata = nil
	if !pick.Response {
		want.Response = nil
	}
	if brief(got) != brief(want) {
		t.Fatalf("%s: picked:\n got %s\nwant %s", line, brief(got), brief(want))
	}
	for k, key := range pick.Keys {
		g, w := got.Picked[k], pickedValue(md, key)
		if g.Kind != w.Kind || math.Float64bits(g.Number) != math.Float64bits(w.Number) {
			t.Fatalf("%s: key %q picked as %+v, want %+v", line, key, g, w)
		}
		// A value that is no number is kept aside, for the message.
		if other, ok := got.PickedOthers[k]; g.Kind == scoring.PickedOther && other != md[key] || g.Kind != scoring.PickedOther && ok {
			t.Fatalf("%s: key %q kept aside as %#v, want %#v", line, key, other, md[key])
		}
	}
}

// randomPlainLine returns a trajectory object that is mostly plain: its
// fields and metadata are of the usual kinds, but numbers are written
// every way, strings may hold escapes and bytes that are not UTF-8, keys
// may repeat, and once in a while a field or value is wrong.
func randomPlainLine(rng *rand.Rand) string {
	var b strings.Builder
	ws := func() {
		for rng.IntN(6) == 0 {
			b.WriteByte(" \t"[rng.IntN(2)])
		}
	}
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	str := func() string {
		return pick(`""`, `"a"`, `"t17"`, `"é"`, `"a\"b"`, `"\u00e9"`, "\"\xff\"", `"NaN"`, `"x y z"`, "\"\xc3\"")
	}
	num := func() string {
		switch rng.IntN(5) {
		case 0:
			return strconv.Itoa(rng.IntN(2000) - 1000)
		case 1:
			return strconv.FormatFloat(rng.Float64(), 'g', -1, 64)
		case 2:
			return strconv.FormatFloat(rng.NormFloat64()*1e6, 'e', rng.IntN(18), 64)
		case 3:
			return pick("0", "-0", "1.0", "3.50e1", "1e400", "-1e-400", "1E5", "0.000001", "123456789012345678901", "2.5e-30")
		}
		return strconv.FormatFloat(rng.Float64()*1e-5, 'f', -1, 64)
	}
	value := func() string {
		switch rng.IntN(12) {
		case 0:
			return str()
		case 1:
			return pick("true", "false", "null")
		case 2:
			return pick("NaN", "-Infinity", "[1]", `{"a":1}`, "tru", "1.", "01", `"\x"`)
		}
		return num()
	}
	field := func(key string) {
		b.WriteString(key)
		ws()
		b.WriteByte(':')
		ws()
		switch key {
		case `"id"`, `"group"`:
			b.WriteString(pick(str(), str(), num(), "null", "[]"))
		case `"batch"`, `"step_count"`:
			b.WriteString(pick(strconv.Itoa(rng.IntN(100)), strconv.Itoa(rng.IntN(100)), "-1", "2.0", "2.5", `"3"`, "null", "1e30"))
		case `"done"`:
			b.WriteString(pick("true", "false", "null", "1"))
		case `"response"`:
			b.WriteString(pick(str(), str(), `{"text":[1,2.5,null]}`, "[]", "null", "NaN"))
		case `"metadata"`, `"meta\u0064ata"`:
			if rng.IntN(12) == 0 {
				b.WriteString(pick("null", "[]", "1", `"m"`))
				return
			}
			b.WriteByte('{')
			for j, n := 0, rng.IntN(9); j < n; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				ws()
				b.WriteString(pick(`"o1"`, `"o2"`, `"o3"`, `"accuracy"`, `"o\u0031"`, `""`, `"é"`))
				ws()
				b.WriteByte(':')
				ws()
				b.WriteString(value())
				ws()
			}
			b.WriteByte('}')
		default:
			b.WriteString(value())
		}
	}
	keys := []string{`"id"`, `"batch"`, `"group"`, `"step_count"`, `"response"`, `"done"`, `"metadata"`}
	b.WriteByte('{')
	ws()
	for i, n := 0, rng.IntN(9); i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
			ws()
		}
		key := keys[rng.IntN(len(keys))]
		if rng.IntN(20) == 0 {
			key = pick(`"other"`, `"meta\u0064ata"`, `"i\u0064"`)
		}
		field(key)
		ws()
	}
	b.WriteByte('}')
	return b.String()
}

// TestPlainMatchesGeneral checks that lines read as the general path
// reads them, whether parsePlain takes them or not.
func TestPlainMatchesGeneral(t *testing.T) {
	c := newPlainChecker()
	for _, line := range []string{
		`{"id": "t0", "batch": 0, "step_count": 1, "response": "The answer is 0.", "metadata": {"o1": 0.5118216247002567, "o2": 0.9504636963259353, "o3": 0.14415961271963373}}`,
		`{}`, ` { } `, `{"metadata":{}}`, `{"metadata":null}`, `{"metadata":{"a":1},"metadata":{"b":2}}`,
		`{"metadata":{"a":1},"metadata":null}`, `{"metadata":{"a":1,"a":[2]}}`, `{"metadata":{"a":[2],"a":1}}`,
		`{"metadata":{"a":1,"b":NaN}}`, `{"metadata":{"a":1},"x":}`, `{"metadata":{"a":1}} x`, `{"metadata":5}`,
		`{"meta\u0064ata":{"a":1}}`, `{"metadata":{"a":1},"meta\u0064ata":{"b":2}}`, `{"id":7,"id":"t"}`,
		`{"step_count":-1,"metadata":{"a":1}}`, `{"batch":"x","metadata":{"a":1}}`, `{"id":""}`, `{"id":null}`,
		`{"response":{"a":[1,{"b":null}]},"group":"g"}`, `{"metadata":{"é":"\u00e9","s":"` + "\xff" + `"}}`, `[1]`,
		`{"metadata":{"a":1e400,"b":-0,"c":true,"d":false,"e":null}}`, `{"metadata":{"a":1}`, `{"metadata":{"a":1}}}`,
	} {
		c.check(t, []byte(line))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 50_000
	for range n {
		line := randomPlainLine(rng)
		if rng.IntN(3) == 0 {
			line = randomTrajectoryLine(rng)
		}
		b := []byte(line)
		if rng.IntN(10) == 0 && len(b) > 0 { // corrupt a few
			b[rng.IntN(len(b))] = "{}[],:\"x"[rng.IntN(8)]
		}
		c.check(t, b)
	}
	if c.plain < n/4 || c.picked < n/4 {
		t.Errorf("parsePlain read %d lines of %d, %d of them with a pick: the test hardly exercises it", c.plain, n, c.picked)
	}
}

// FuzzPlainLine checks that a line reads as the general path reads it.
func FuzzPlainLine(f *testing.F) {
	for _, s := range []string{
		`{"id": "t0", "batch": 0, "step_count": 1, "response": "The answer is 0.", "metadata": {"o1": 0.5118216247002567, "o2": 0.9504636963259353}}`,
		`{"metadata":{"a":1},"metadata":{"b":2}}`,
		`{"metadata":{"a":1,"b":NaN},"response":[Infinity]}`,
		`{"meta\u0064ata":{"a":"\u00e9"},"group":"g","done":false}`,
		`{"metadata":{"a":1e400,"b":-0,"c":true,"d":null,"e":123456789012345678901}}`,
	} {
		f.Add([]byte(s))
	}
	c := newPlainChecker()
	f.Fuzz(func(t *testing.T, line []byte) {
		c.check(t, line)
	})
}
