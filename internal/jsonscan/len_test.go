package jsonscan

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/jsontest"
)

// stdLen is Len by encoding/json: an array's elements decoded, an
// object's keys read as tokens (a key given twice counted twice), of text
// that is UTF-8 (stdValid).
func stdLen(doc []byte) (int, bool) {
	if !stdValid(doc) {
		return 0, false
	}
	var arr []json.RawMessage
	if json.Unmarshal(doc, &arr) == nil && arr != nil {
		return len(arr), true
	}
	dec := json.NewDecoder(strings.NewReader(string(doc)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0, false
	}
	keys := 0
	for dec.More() {
		var value json.RawMessage
		if _, err := dec.Token(); err != nil || dec.Decode(&value) != nil { // the key, then its value
			return 0, false
		}
		keys++
	}
	return keys, true
}

// TestLenMatchesStd compares Len with encoding/json's count on random
// documents and random corruptions of them.
func TestLenMatchesStd(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	alphabet := []byte(" \t\n{}[]:,\"\\-0123456789eEtrufalsn")
	for range 50_000 {
		var sb strings.Builder
		sb.WriteString([]string{"[", "{"}[rng.IntN(2)])
		for k := range rng.IntN(5) {
			if k > 0 {
				sb.WriteString(",")
			}
			if sb.String()[0] == '{' {
				sb.WriteString(`"k":`)
			}
			jsontest.Value(rng, &sb, 3)
		}
		sb.WriteString(map[byte]string{'[': "]", '{': "}"}[sb.String()[0]])
		doc := []byte(sb.String())
		if rng.IntN(2) == 0 && len(doc) > 0 {
			i := rng.IntN(len(doc))
			doc[i] = alphabet[rng.IntN(len(alphabet))]
		}
		n, ok := Len(doc)
		if wantN, wantOK := stdLen(doc); n != wantN || ok != wantOK {
			t.Fatalf("Len(%q) = %d, %v; encoding/json %d, %v", doc, n, ok, wantN, wantOK)
		}
	}
}

func FuzzLen(f *testing.F) {
	for _, c := range []string{`[]`, `[1, [2, 3], "a,]"]`, `{"a": {"b": 1}, "a": 2}`, `[1,,2]`, `"x"`, ` [ ] `, `3`} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		n, ok := Len(doc)
		if wantN, wantOK := stdLen(doc); n != wantN || ok != wantOK {
			t.Fatalf("Len(%q) = %d, %v; encoding/json %d, %v", doc, n, ok, wantN, wantOK)
		}
	})
}
