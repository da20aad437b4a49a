package loaders

import (
	"fmt"

	"encoding/json"
	"github.com/rewardlens/rewardlens/engine"
	"math/rand/v2"
	"strings"
	"testing"
)

var validCases = []string{
	``, ` `, `{}`, ` { } `, `[]`, `[ ]`, `"`, `""`, `"a"`, `"\"`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\u00e9"`,
	`"\u00g9"`, `"\u00e"`, `"\x"`, "\"\x1f\"", "\"\x7f\"", "\"\xff\xfe\"", "\"\t\"", `"é"`,
	`0`, `-0`, `-`, `01`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-05`, `1e`, `1e+`, `-1.5e-3`, `- 1`, `1 2`,
	`+1`, `0x10`, `Infinity`, `NaN`, `-Infinity`, `true`, `false`, `null`, `tru`, `nulll`, `True`,
	`{"a":1}`, `{"a" : 1 , "b":[1,2,{"c":null}]}`, `{"a":1,}`, `{,"a":1}`, `{"a"}`, `{"a":}`, `{a:1}`,
	`{"a":1 "b":2}`, `[1,]`, `[,1]`, `[1 2]`, `[[[]]]`, `[[[]]`, `{"a":{"b":{}}}}`, "{\"a\":1}\n",
	"\t\r\n {\"a\":[true,false,null]} \r\n", `{"a":1}x`, `{"a":"\u12"}`, `[1e1000]`, `[-]`, `[0.e1]`,
	`["a\"b"]`, `["a\\"]`, `["a\\\"]`, `"12345678\"1234567"`, `"1234567\\"`, `"12345678901234567890"`,
	"\"1234567\x00abcdefgh\"", "\"12345678\x1fabcdefgh\"", "\"12345678\\\"abcdefgh\"", "\xef\xbb\xbf{}",
}

func TestValidJSONCases(t *testing.T) {
	for _, c := range validCases {
		if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

func TestValidJSONNesting(t *testing.T) {
	for _, depth := range []int{maxNesting - 1, maxNesting, maxNesting + 1} {
		for _, pair := range []string{"[]", `{"a":}`} {
			open, close := pair[:len(pair)-1], pair[len(pair)-1:]
			if pair == "[]" {
				open = "["
			}
			text := strings.Repeat(open, depth) + "1" + strings.Repeat(close, depth)
			if pair != "[]" {
				text = strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
			}
			if got, want := validJSON([]byte(text)), json.Valid([]byte(text)); got != want {
				t.Errorf("depth %d of %s: validJSON = %v, json.Valid = %v", depth, pair, got, want)
			}
		}
	}
}

// randomJSON writes a random JSON value, with random white space, of at
// most depth levels.
func randomJSON(rng *rand.Rand, b *strings.Builder, depth int) {
	ws := func() {
		for rng.IntN(4) == 0 {
			b.WriteByte(" \t\r\n"[rng.IntN(4)])
		}
	}
	ws()
	switch k := rng.IntN(9); {
	case k == 0 && depth > 0:
		b.WriteByte('{')
		for i, n := 0, rng.IntN(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			randomString(rng, b)
			ws()
			b.WriteByte(':')
			randomJSON(rng, b, depth-1)
		}
		ws()
		b.WriteByte('}')
	case k == 1 && depth > 0:
		b.WriteByte('[')
		for i, n := 0, rng.IntN(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			randomJSON(rng, b, depth-1)
		}
		ws()
		b.WriteByte(']')
	case k <= 3:
		randomString(rng, b)
	case k <= 6:
		numbers := []string{"0", "-0", "12", "-3.25", "1e9", "2.5E-3", "6.02e+23", "10", "0.0001"}
		b.WriteString(numbers[rng.IntN(len(numbers))])
	default:
		b.WriteString([]string{"true", "false", "null"}[rng.IntN(3)])
	}
	ws()
}

func randomString(rng *rand.Rand, b *strings.Builder) {
	pieces := []string{"a", "hello world ", `\"`, `\\`, `\/`, `\n`, `\u00e9`, "é", "\xff", "0123456789abcdef", "\t", "\x01"}
	b.WriteByte('"')
	for n := rng.IntN(6); n > 0; n-- {
		p := pieces[rng.IntN(len(pieces))]
		if (p == "\t" || p == "\x01") && rng.IntN(4) > 0 {
			continue // mostly valid strings
		}
		b.WriteString(p)
	}
	b.WriteByte('"')
}

// TestValidJSONMatchesStd compares validJSON with json.Valid on random
// documents and random corruptions of them.
func TestValidJSONMatchesStd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	alphabet := []byte(" \t\n{}[]:,\"\\-+.0123456789eEtrufalsn\x00\x1f\xff/u")
	for range 100_000 {
		var sb strings.Builder
		randomJSON(rng, &sb, 4)
		doc := []byte(sb.String())
		for n := rng.IntN(3); n > 0 && len(doc) > 0; n-- {
			i := rng.IntN(len(doc))
			switch rng.IntN(3) {
			case 0:
				doc = append(doc[:i], doc[i+1:]...)
			case 1:
				doc[i] = alphabet[rng.IntN(len(alphabet))]
			default:
				doc = append(doc[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, doc[i:]...)...)
			}
		}
		if got, want := validJSON(doc), json.Valid(doc); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", doc, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := validJSON(doc), json.Valid(doc); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", doc, got, want)
		}
	})
}

// randomTrajectoryLine returns a JSON object shaped like a trajectory, with
// random white space, duplicate and escaped keys, and odd metadata.
func randomTrajectoryLine(rng *rand.Rand) string {
	var b strings.Builder
	ws := func() {
		for rng.IntN(5) == 0 {
			b.WriteByte(" \t"[rng.IntN(2)])
		}
	}
	b.WriteByte('{')
	keys := []string{`"id"`, `"group"`, `"batch"`, `"step_count"`, `"response"`, `"done"`, `"metadata"`, `"meta\u0064ata"`, `"other"`}
	for i, n := 0, rng.IntN(9); i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		ws()
		key := keys[rng.IntN(len(keys))]
		b.WriteString(key)
		ws()
		b.WriteByte(':')
		ws()
		switch {
		case strings.Contains(key, "meta") && rng.IntN(5) > 0:
			b.WriteByte('{')
			for j, m := 0, rng.IntN(4); j < m; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				ws()
				b.WriteString([]string{`"a"`, `"b"`, `"a\"b"`, `"é"`}[rng.IntN(4)])
				ws()
				b.WriteByte(':')
				randomJSON(rng, &b, 1)
			}
			ws()
			b.WriteByte('}')
		default:
			randomJSON(rng, &b, 2)
		}
		ws()
	}
	b.WriteByte('}')
	return b.String()
}

// TestRecordedMembersMatchWalk checks that an objectRecord judges validity
// as json.Valid does and records what the walker finds, and that a
// trajectory read from the record is the one read by walking.
func TestRecordedMembersMatchWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var rec objectRecord
	var in interner
	for range 50_000 {
		line := []byte(randomTrajectoryLine(rng))
		if rng.IntN(10) == 0 && len(line) > 0 { // corrupt a few
			line[rng.IntN(len(line))] = "{}[],:\"x"[rng.IntN(8)]
		}
		if got, want := rec.scan(line), json.Valid(line); got != want {
			t.Fatalf("scan(%s) = %v, json.Valid says %v", line, got, want)
		}
		walked, werr := decodeObject(line)
		recorded, rerr := decodeObjectRecord(line, &rec)
		if (werr == nil) != (rerr == nil) || (werr != nil && *werr != *rerr) {
			t.Fatalf("%s: errors %v and %v", line, werr, rerr)
		}
		if werr != nil {
			continue
		}
		if recorded.recorded != nil {
			var want []member
			for k, v := range members(walked.obj) {
				want = append(want, member{k, v})
			}
			if fmt.Sprint(want) != fmt.Sprint(recorded.recorded) {
				t.Fatalf("%s: recorded %q, walked %q", line, recorded.recorded, want)
			}
		}
		tw := engine.Trajectory{Metadata: map[string]any{}}
		tr := engine.Trajectory{Metadata: map[string]any{}}
		recorded.in = &in
		errw, errr := walked.trajectory(&tw), recorded.trajectory(&tr)
		if fmt.Sprint(errw) != fmt.Sprint(errr) || brief(tw) != brief(tr) {
			t.Fatalf("%s:\n walked   %s %v\n recorded %s %v", line, brief(tw), errw, brief(tr), errr)
		}
	}
}

// TestFieldSlots checks that the names of the fields have slots of their
// own in fieldSlots, and that fieldIndex finds them and nothing else.
func TestFieldSlots(t *testing.T) {
	for i, f := range trajectoryFields {
		if got := fieldSlots[fieldSlot(f.name)]; int(got) != i {
			t.Errorf("the slot of %q holds %d, not its index %d", f.name, got, i)
		}
		if got := fieldIndex([]byte(f.name)); got != i {
			t.Errorf("fieldIndex(%q) = %d, want %d", f.name, got, i)
		}
	}
	for _, name := range []string{"", "i", "ID", "jc", "batc", "batchx", "metadat", "metadatb", "step_coun", "response "} {
		if got := fieldIndex([]byte(name)); got != -1 {
			t.Errorf("fieldIndex(%q) = %d, want -1", name, got)
		}
	}
}
