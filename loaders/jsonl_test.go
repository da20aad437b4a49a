package loaders

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestJSONLFields(t *testing.T) {
	const src = "t.jsonl"
	inf := math.Inf(1)
	tests := []readCase{
		{"every field",
			`{"id":"a","batch":2,"group":"g","step_count":5,"response":"hi","done":false,"metadata":{"x":1.5,"s":"t","b":true,"n":null}}`,
			[]want{{id: "a", batch: 2, group: "g", steps: 5, resp: `"hi"`, notDone: true,
				meta: map[string]any{"x": 1.5, "s": "t", "b": true, "n": nil}, src: src, line: 1}}},
		{"defaults are positions, file index, empty group, 0 steps, no response, done, empty metadata",
			"{}\n{}\n",
			[]want{{id: "0", src: src, line: 1}, {id: "1", src: src, line: 2}}},
		{"null is absent",
			`{"id":null,"batch":null,"group":null,"step_count":null,"response":null,"done":null,"metadata":null}`,
			[]want{{id: "0", src: src, line: 1}}},
		{"empty id is absent",
			`{"id":""}`,
			[]want{{id: "0", src: src, line: 1}}},
		{"numeric ids and groups keep their text",
			"{\"id\":1.50,\"group\":7}\n{\"id\":-0,\"group\":1e3}\n{\"id\":12345678901234567890123}",
			[]want{{id: "1.50", group: "7", src: src, line: 1}, {id: "-0", group: "1e3", src: src, line: 2},
				{id: "12345678901234567890123", src: src, line: 3}}},
		{"integral numbers are integers",
			"{\"batch\":3.0,\"step_count\":4e0}\n{\"batch\":-2,\"step_count\":50e-1}\n{\"batch\":9223372036854775807,\"step_count\":0.0}",
			[]want{{id: "0", batch: 3, steps: 4, src: src, line: 1}, {id: "1", batch: -2, steps: 5, src: src, line: 2},
				{id: "2", batch: math.MaxInt64, src: src, line: 3}}},
		{"response is kept as written",
			`{"response":{"a": [1, 2.50], "b": "x"}}`,
			[]want{{id: "0", resp: `{"a": [1, 2.50], "b": "x"}`, src: src, line: 1}}},
		{"escaped strings",
			`{"id":"a\"b\u00e9\\","group":"\ud83d\ude00","metadata":{"k\n":"\t"}}`,
			[]want{{id: "a\"bé\\", group: "😀", meta: map[string]any{"k\n": "\t"}, src: src, line: 1}}},
		{"unknown top-level fields go into the metadata (objects and arrays as JSON text), field names are case-sensitive",
			`{"extra":[1,{"x":2}],"ID":"no","Batch":"no","id":"k"}`,
			[]want{{id: "k", meta: map[string]any{"extra": `[1,{"x":2}]`, "ID": "no", "Batch": "no"}, src: src, line: 1}}},
		{"verl's rollout dump: every field by name, a bool kept as a bool, the last duplicate wins",
			`{"input":"p","output":"o","gts":null,"score":0.5,"step":3,"acc":true,"score":1}`,
			[]want{{id: "0", meta: map[string]any{"input": "p", "output": "o", "gts": nil, "score": 1.0, "step": 3.0, "acc": true}, src: src, line: 1}}},
		{"the last of duplicate keys wins",
			"{\"id\":\"a\",\"id\":\"b\",\"batch\":\"x\",\"batch\":2,\"metadata\":{\"x\":1,\"x\":2,\"k\":[1],\"j\":{},\"a\":1,\"k\":3,\"j\":null}}\n" +
				`{"id":"a","id":null,"metadata":[1],"metadata":{"y":true}}`,
			[]want{{id: "b", batch: 2, meta: map[string]any{"x": 2.0, "k": 3.0, "j": nil, "a": 1.0}, src: src, line: 1},
				{id: "1", meta: map[string]any{"y": true}, src: src, line: 2}}},
		{"escaped keys",
			`{"\u0069d":"x","metadata":{"\u00e9":1}}`,
			[]want{{id: "x", meta: map[string]any{"é": 1.0}, src: src, line: 1}}},
		{"metadata numbers are float64, too large ones infinite",
			`{"metadata":{"i":3,"big":12345678901234567890,"e":1e400,"m":-1e400,"tiny":1e-400}}`,
			[]want{{id: "0", meta: map[string]any{"i": 3.0, "big": 12345678901234567890.0, "e": inf, "m": -inf, "tiny": 0.0}, src: src, line: 1}}},
		{"blank lines, spaces, CRLF",
			"\r\n  {\"id\":\"a\"}  \r\n\t\n\n{\"id\":\"b\"}\r\n   ",
			[]want{{id: "a", src: src, line: 2}, {id: "b", src: src, line: 5}}},
		{"byte order mark",
			"\ufeff{\"id\":\"a\"}\n{}",
			[]want{{id: "a", src: src, line: 1}, {id: "1", src: src, line: 2}}},
		{"no final newline",
			`{"id":"a"}`,
			[]want{{id: "a", src: src, line: 1}}},
	}
	runReadCases(t, src, tests)
}

func TestJSONLNonFinite(t *testing.T) {
	const src = "t.jsonl"
	nan, inf := math.NaN(), math.Inf(1)
	tests := []readCase{
		{"metadata values",
			`{"metadata":{"a":NaN,"b":Infinity,"c":-Infinity}}`,
			[]want{{id: "0", meta: map[string]any{"a": nan, "b": inf, "c": -inf}, src: src, line: 1}}},
		{"tokens in strings stay text",
			`{"metadata":{"s":"NaN","t":"x Infinity, -Infinity: NaN","u":NaN}}`,
			[]want{{id: "0", meta: map[string]any{"s": "NaN", "t": "x Infinity, -Infinity: NaN", "u": nan}, src: src, line: 1}}},
		{"escaped quotes do not end strings",
			`{"metadata":{"s":"a\" NaN \\","u":NaN}}`,
			[]want{{id: "0", meta: map[string]any{"s": `a" NaN \`, "u": nan}, src: src, line: 1}}},
		{"keys named like tokens",
			`{"metadata":{"NaN":NaN,"Infinity":1}}`,
			[]want{{id: "0", meta: map[string]any{"NaN": nan, "Infinity": 1.0}, src: src, line: 1}}},
		{"ids and groups take the token as text",
			"{\"id\":NaN,\"group\":Infinity}\n{\"id\":-Infinity}",
			[]want{{id: "NaN", group: "Infinity", src: src, line: 1}, {id: "-Infinity", src: src, line: 2}}},
		{"responses keep the tokens as written",
			`{"response":{"v":[NaN, -Infinity], "s":"NaN"},"metadata":{"a":Infinity}}`,
			[]want{{id: "0", resp: `{"v":[NaN, -Infinity], "s":"NaN"}`, meta: map[string]any{"a": inf}, src: src, line: 1}}},
		{"unusual spacing",
			"{ \"metadata\" : { \"a\" :NaN , \"b\":\t-Infinity } }",
			[]want{{id: "0", meta: map[string]any{"a": nan, "b": -inf}, src: src, line: 1}}},
	}
	runReadCases(t, src, tests)
}

func TestJSONLErrors(t *testing.T) {
	tests := []errorCase{
		{"syntax", `{"a":x}`, `t.jsonl:1:6: invalid JSON: invalid character 'x' looking for beginning of value`},
		// A string holding 0xFF, which the rewriter escapes to keep markers
		// apart, is no UTF-8 and no marker, with tokens or without.
		{"a string that looks like a marker", "{\"metadata\":{\"s\":\"\xffN\",\"t\":\"\xff-\",\"n\":NaN},\"response\":[\"\xffI\",NaN]}", `t.jsonl:1:19: invalid UTF-8: byte 0xff is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
		{"the same string without tokens", "{\"metadata\":{\"s\":\"\xffN\"}}", `t.jsonl:1:19: invalid UTF-8: byte 0xff is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
		{"a token before the bad byte", "{\"n\":NaN,\"s\":\"\xff\"}", `t.jsonl:1:15: invalid UTF-8: byte 0xff is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
		{"Latin-1 group", "{\"group\":\"caf\xe9\"}", `t.jsonl:1:14: invalid UTF-8: byte 0xe9 is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
		{"Latin-1 metadata key", "{\"metadata\":{\"caf\xe9\":1}}", `t.jsonl:1:18: invalid UTF-8: byte 0xe9 is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
		{"a cut character in a response", "{\"response\":\"12345678\xe2\x82\"}", `t.jsonl:1:22: invalid UTF-8: byte 0xe2 is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
		{"a bad byte outside a string is a syntax error", "{\"a\":\xff}", `t.jsonl:1:6: invalid JSON: invalid byte 0xff (not UTF-8) looking for beginning of value`},
		{"trailing garbage", `{"a":1} x`, `t.jsonl:1:9: invalid JSON: invalid character 'x' after top-level value`},
		{"two objects", `{"a":1}{"b":2}`, `t.jsonl:1:8: invalid JSON: invalid character '{' after top-level value`},
		{"truncated", `{"a":1`, `t.jsonl:1:6: invalid JSON: unexpected end of JSON input`},
		{"line number", "{}\n\n  {x}\n{}", `t.jsonl:3:4: invalid JSON: invalid character 'x' looking for beginning of object key string`},
		{"CRLF line number", "{}\r\n{x}\r\n", `t.jsonl:2:2: invalid JSON: invalid character 'x' looking for beginning of object key string`},
		{"byte order mark counts in columns", "\ufeff{x}", `t.jsonl:1:5: invalid JSON: invalid character 'x' looking for beginning of object key string`},
		{"column after rewritten tokens", `{"a":NaN,"b":Infinity x}`, `t.jsonl:1:23: invalid JSON: invalid character 'x' after object key:value pair`},
		{"unquoted token key", `{"metadata":{NaN:1}}`, `t.jsonl:1:14: invalid JSON: invalid character 'N' looking for beginning of object key string`},
		{"misspelt token", `{"metadata":{"a":Nan}}`, `t.jsonl:1:18: invalid JSON: invalid character 'N' looking for beginning of value`},
		{"lowercase token", `{"metadata":{"a":nan}}`, `t.jsonl:1:19: invalid JSON: invalid character 'a' in literal null (expecting 'u')`},
		{"array", `[1]`, `t.jsonl:1: expected a JSON object, found an array`},
		{"string", `"s"`, `t.jsonl:1: expected a JSON object, found "s"`},
		{"null", ` null `, `t.jsonl:1: expected a JSON object, found null`},
		{"bare NaN", `NaN`, `t.jsonl:1: expected a JSON object, found NaN`},
		{"id array", `{"id":[1]}`, `t.jsonl:1:7: id: must be a string or a number, found an array`},
		{"id bool", `{"id":true}`, `t.jsonl:1:7: id: must be a string or a number, found true`},
		{"group object", `{"group":{}}`, `t.jsonl:1:10: group: must be a string or a number, found an object`},
		{"batch string", `{"batch":"3"}`, `t.jsonl:1:10: batch: must be an integer, found "3"`},
		{"batch fraction", `{"batch":3.5}`, `t.jsonl:1:10: batch: must be an integer, found 3.5`},
		{"batch almost integral", `{"batch":3.0000000000000001}`, `t.jsonl:1:10: batch: must be an integer, found 3.0000000000000001`},
		{"batch too large", `{"batch":1e30}`, `t.jsonl:1:10: batch: must be an integer in the 64-bit range, found 1e30`},
		{"batch just too large", `{"batch":9223372036854775808}`, `t.jsonl:1:10: batch: must be an integer in the 64-bit range, found 9223372036854775808`},
		{"batch NaN", `{"batch":NaN}`, `t.jsonl:1:10: batch: must be an integer, found NaN`},
		{"batch bool", `{"batch":true}`, `t.jsonl:1:10: batch: must be an integer, found true`},
		{"step_count negative", `{"step_count":-1}`, `t.jsonl:1:15: step_count: must be an integer >= 0, found -1`},
		{"step_count string", `{"step_count":"2"}`, `t.jsonl:1:15: step_count: must be an integer, found "2"`},
		{"step_count fraction", `{"step_count":2.5}`, `t.jsonl:1:15: step_count: must be an integer, found 2.5`},
		{"step_count infinite", `{"step_count":Infinity}`, `t.jsonl:1:15: step_count: must be an integer, found Infinity`},
		{"done string", `{"done":"yes"}`, `t.jsonl:1:9: done: must be true or false, found "yes"`},
		{"done number", `{"done":1}`, `t.jsonl:1:9: done: must be true or false, found 1`},
		{"metadata array", `{"metadata":[1]}`, `t.jsonl:1:13: metadata: must be an object, found an array`},
		{"metadata string", `{"metadata":"x"}`, `t.jsonl:1:13: metadata: must be an object, found "x"`},
		{"metadata nested object", `{"metadata":{"k":{"a":1}}}`, `t.jsonl:1:18: metadata.k: must be a number, string, bool or null, found an object`},
		{"metadata nested array", `{"metadata":{"k":[NaN]}}`, `t.jsonl:1:18: metadata.k: must be a number, string, bool or null, found an array`},
		{"first bad metadata value", `{"metadata":{"z":[],"b":{},"a":1}}`, `t.jsonl:1:18: metadata.z: must be a number, string, bool or null, found an array`},
		{"first bad metadata value not replaced", `{"metadata":{"z":[],"b":{},"z":1}}`, `t.jsonl:1:25: metadata.b: must be a number, string, bool or null, found an object`},
		{"bad metadata value replacing a good one", `{"metadata":{"z":1,"z":[]}}`, `t.jsonl:1:24: metadata.z: must be a number, string, bool or null, found an array`},
		{"first bad field in field order", `{"metadata":[],"step_count":-1,"batch":"x"}`, `t.jsonl:1:40: batch: must be an integer, found "x"`},
		{"long values are shortened", `{"batch":"` + strings.Repeat("é", 50) + `"}`, `t.jsonl:1:10: batch: must be an integer, found "` + strings.Repeat("é", 39) + `…`},
	}
	runErrorCases(t, "t.jsonl", tests)
}

func TestJSONLLongLines(t *testing.T) {
	long := strings.Repeat("abcdefgh", 9<<20/8) // 9 MiB
	input := `{"id":"a"}` + "\n" +
		`{"id":"b","response":"` + long + `","metadata":{"x":NaN,"s":"` + long + `"}}` + "\r\n" +
		`{"id":"c"}` + "\n" +
		`{"id":"d","response":"` + long + `"` // unterminated
	_, err := readString("t.jsonl", input, Options{})
	checkLineError(t, err, fmt.Sprintf("t.jsonl:4:%d: invalid JSON: unexpected end of JSON input", len(long)+23))

	res, err := readString("t.jsonl", input, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trajectories) != 3 || res.Skipped != 1 {
		t.Fatalf("got %d trajectories and %d skipped, want 3 and 1", len(res.Trajectories), res.Skipped)
	}
	b := res.Trajectories[1]
	if b.ID != "b" || b.Line != 2 || b.ResponseText() != long || b.Metadata["s"] != long || !math.IsNaN(b.Metadata["x"].(float64)) {
		t.Errorf("long line read wrongly: id %q line %d, response of %d bytes", b.ID, b.Line, len(b.ResponseText()))
	}
	if c := res.Trajectories[2]; c.ID != "c" || c.Line != 3 {
		t.Errorf("line after the long one: id %q line %d, want c at 3", c.ID, c.Line)
	}
}

func TestJSONLSkipInvalid(t *testing.T) {
	input := "{}\n{x}\n\n[1]\n{\"batch\":1.5}\n{\"id\":null}\n{\"metadata\":{\"a\":{}}}\n{\"group\":\"g\"}\n"
	res, err := readString("t.jsonl", input, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "0", src: "t.jsonl", line: 1},
		{id: "1", src: "t.jsonl", line: 6},
		{id: "2", group: "g", src: "t.jsonl", line: 8},
	})
	wantReasons := []string{
		"t.jsonl:2:2: invalid JSON: invalid character 'x' looking for beginning of object key string",
		"t.jsonl:4: expected a JSON object, found an array",
		"t.jsonl:5:10: batch: must be an integer, found 1.5",
		"t.jsonl:7:18: metadata.a: must be a number, string, bool or null, found an object",
	}
	if res.Skipped != len(wantReasons) {
		t.Errorf("Skipped = %d, want %d", res.Skipped, len(wantReasons))
	}
	for i, r := range res.SkipReasons {
		if i >= len(wantReasons) || r.Error() != wantReasons[i] {
			t.Errorf("reason %d = %q", i, r)
		}
	}
}

func TestSkipReasonsAreCapped(t *testing.T) {
	var b bytes.Buffer
	for range 150 {
		b.WriteString("{x}\n")
	}
	b.WriteString("{}\n")
	res, err := Read(&b, "t.jsonl", 0, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != 150 || len(res.SkipReasons) != 100 {
		t.Fatalf("Skipped %d with %d reasons, want 150 with 100", res.Skipped, len(res.SkipReasons))
	}
	if first, last := res.SkipReasons[0], res.SkipReasons[99]; first.Line != 1 || last.Line != 100 {
		t.Errorf("reasons from line %d to %d, want 1 to 100", first.Line, last.Line)
	}
	if len(res.Trajectories) != 1 || res.Trajectories[0].ID != "0" || res.Trajectories[0].Line != 151 {
		t.Errorf("got %v, want the trajectory 0 at line 151", briefs(res))
	}
}

func TestJSONLReadError(t *testing.T) {
	r := ioErrReader{data: "{}\n{}\n{\"id\"", err: errors.New("disk on fire")}
	_, err := Read(&r, "t.jsonl", 0, Options{SkipInvalid: true})
	if err == nil || err.Error() != "t.jsonl:3: read: disk on fire" || !errors.Is(err, r.err) {
		t.Errorf("error %v, want t.jsonl:3: read: disk on fire wrapping the cause", err)
	}
}

// ioErrReader returns data, then err.
type ioErrReader struct {
	data string
	err  error
}

func (r *ioErrReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}
