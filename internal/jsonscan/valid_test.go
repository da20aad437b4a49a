package jsonscan

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

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
	// Strings that are not UTF-8 (Latin-1, a cut or surrogate sequence), in
	// and out of the eight-byte loop.
	"\"caf\xe9\"", "\"caf\xe8\"", "\"12345678caf\xe9abcdefgh\"", "\"12345678caf\u00e9abcdefgh\"", "\"\xe2\x80\"",
	"\"\xe2\x80\"x\"", "\"\xed\xa0\x80\"", "\"é\xe9\"", "\"1234567é12345678\"", "{\"caf\xe9\":1}", "[\"a\",\"\xe9\"]",
}

// stdValid is what Valid must report: json.Valid's grammar, and UTF-8
// throughout (outside strings, a byte >= 0x80 is a syntax error anyway).
func stdValid(b []byte) bool { return json.Valid(b) && utf8.Valid(b) }

func TestValidJSONCases(t *testing.T) {
	for _, c := range validCases {
		if got, want := Valid([]byte(c)), stdValid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid and UTF-8 say %v", c, got, want)
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
			if got, want := Valid([]byte(text)), stdValid([]byte(text)); got != want {
				t.Errorf("depth %d of %s: Valid = %v, json.Valid = %v", depth, pair, got, want)
			}
		}
	}
}

// TestValidJSONMatchesStd compares Valid with json.Valid (and UTF-8) on
// random documents and random corruptions of them.
func TestValidJSONMatchesStd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	alphabet := []byte(" \t\n{}[]:,\"\\-+.0123456789eEtrufalsn\x00\x1f\xff/u\xe9\xc3\xa9")
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
		if got, want := Valid(doc), stdValid(doc); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid and UTF-8 say %v", doc, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := Valid(doc), stdValid(doc); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid and UTF-8 say %v", doc, got, want)
		}
	})
}
