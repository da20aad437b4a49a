package jsonscan

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/jsontest"
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
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

func TestValidJSONNesting(t *testing.T) {
	for _, depth := range []int{MaxNesting - 1, MaxNesting, MaxNesting + 1} {
		for _, pair := range []string{"[]", `{"a":}`} {
			open, close := pair[:len(pair)-1], pair[len(pair)-1:]
			if pair == "[]" {
				open = "["
			}
			text := strings.Repeat(open, depth) + "1" + strings.Repeat(close, depth)
			if pair != "[]" {
				text = strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
			}
			if got, want := Valid([]byte(text)), json.Valid([]byte(text)); got != want {
				t.Errorf("depth %d of %s: Valid = %v, json.Valid = %v", depth, pair, got, want)
			}
		}
	}
}

// TestValidJSONMatchesStd compares Valid with json.Valid on random
// documents and random corruptions of them.
func TestValidJSONMatchesStd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	alphabet := []byte(" \t\n{}[]:,\"\\-+.0123456789eEtrufalsn\x00\x1f\xff/u")
	for range 100_000 {
		var sb strings.Builder
		jsontest.Value(rng, &sb, 4)
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
		if got, want := Valid(doc), json.Valid(doc); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", doc, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := Valid(doc), json.Valid(doc); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", doc, got, want)
		}
	})
}
