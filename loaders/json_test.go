package loaders

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"
)

func TestJSONArray(t *testing.T) {
	const src = "t.json"
	nan, inf := math.NaN(), math.Inf(1)
	tests := []readCase{
		{"one line",
			`[{"id":"a","batch":2,"group":"g","step_count":5,"response":[1, "x"],"done":false,"metadata":{"x":1.5,"s":"t","b":true,"n":null}},{}]`,
			[]want{{id: "a", batch: 2, group: "g", steps: 5, resp: `[1, "x"]`, notDone: true,
				meta: map[string]any{"x": 1.5, "s": "t", "b": true, "n": nil}, src: src, line: 1, element: 1},
				{id: "1", src: src, line: 1, element: 2}}},
		{"pretty-printed: the line where each element starts",
			"[\n  {\n    \"id\": \"a\"\n  },\n  {\"id\": \"b\"}, {\"id\": \"c\"},\n\n  {}\n]\n",
			[]want{{id: "a", src: src, line: 2}, {id: "b", src: src, line: 5}, {id: "c", src: src, line: 5, element: 3}, {id: "3", src: src, line: 7}}},
		{"byte order mark, CRLF and spaces",
			"\ufeff \r\n[\r\n{\"id\":1},\r\n{\"id\":2.0}\r\n]\r\n ",
			[]want{{id: "1", src: src, line: 3}, {id: "2.0", src: src, line: 4}}},
		{"non-finite tokens",
			"[{\"id\":NaN,\"metadata\":{\"a\":NaN,\"b\":Infinity,\"s\":\"NaN\"},\"response\":[-Infinity]},\n{\"metadata\":{\"c\":-Infinity}}]",
			[]want{{id: "NaN", resp: `[-Infinity]`, meta: map[string]any{"a": nan, "b": inf, "s": "NaN"}, src: src, line: 1, element: 1},
				{id: "1", meta: map[string]any{"c": -inf}, src: src, line: 2}}},
	}
	runReadCases(t, src, tests)
}

// TestJSONArrayShortReads checks that tokens split between reads are still
// recognised.
func TestJSONArrayShortReads(t *testing.T) {
	input := "[{\"metadata\":{\"a\":NaN,\"b\":-Infinity,\"s\":\"é\"}},\n{\"metadata\":{\"c\":Infinity}}]"
	wraps := map[string]func(io.Reader) io.Reader{
		"one byte":  iotest.OneByteReader,
		"half":      iotest.HalfReader,
		"data, err": iotest.DataErrReader,
	}
	for name, wrap := range wraps {
		t.Run(name, func(t *testing.T) {
			res, err := Read(wrap(strings.NewReader(input)), "t.json", 0, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkTrajectories(t, res, []want{
				{id: "0", meta: map[string]any{"a": math.NaN(), "b": math.Inf(-1), "s": "é"}, src: "t.json", line: 1, element: 1},
				{id: "1", meta: map[string]any{"c": math.Inf(1)}, src: "t.json", line: 2},
			})
		})
	}
}

func TestJSONArrayErrors(t *testing.T) {
	tests := []errorCase{
		{"syntax in an element", "[\n {\"a\":1},\n  x]", `t.json:3:3: invalid JSON: invalid character 'x' looking for beginning of value`},
		{"syntax deep in an element", "[{},\n{\"a\":\n  [1, 2 3]}]", `t.json:3:9: invalid JSON: invalid character '3' after array element`},
		{"missing comma", "[{\"a\":1}\n {\"b\":2}]", `t.json:2:2: invalid JSON: expected comma after array element`},
		{"trailing comma", `[{},]`, `t.json:1:5: invalid JSON: invalid character ']' looking for beginning of value`},
		{"truncated", `[{"a":1}`, `t.json:1:9: invalid JSON: unexpected end of input`},
		{"truncated in an element", "[{\"a\":1},\n{\"b\":", `t.json:2:6: invalid JSON: unexpected end of input`},
		{"only an opening bracket", `[`, `t.json:1:2: invalid JSON: unexpected end of input`},
		{"an object", `{"a":1}`, `t.json:1:1: expected a JSON array of trajectories, found an object`},
		{"a number, after space", "\n  5", `t.json:2:3: expected a JSON array of trajectories, found 5`},
		{"a token", `NaN`, `t.json:1:1: expected a JSON array of trajectories, found NaN`},
		{"closing bracket", ` ]`, `t.json:1:2: invalid JSON: invalid character ']' looking for beginning of value`},
		{"garbage", `x`, `t.json:1:1: invalid JSON: invalid character 'x' looking for beginning of value`},
		{"data after the array", `[{}] x`, `t.json:1:6: invalid JSON: data after the top-level array`},
		{"second array", "[{}]\n[{}]", `t.json:2:1: invalid JSON: data after the top-level array`},
		{"bracket after the array", `[{}]]`, `t.json:1:5: invalid JSON: invalid character ']' looking for beginning of value`},
		{"element not an object", "[{},\n 5]", `t.json:2:2: expected a JSON object, found 5`},
		{"element field", "[{},\n {\n\"batch\":\"x\"}]", `t.json:3:9: batch: must be an integer, found "x"`},
		{"byte order mark counts in columns", "\ufeff[x]", `t.json:1:5: invalid JSON: invalid character 'x' looking for beginning of value`},
		{"column after rewritten tokens", `[{"a":NaN, x}]`, `t.json:1:12: invalid JSON: invalid character 'x' looking for beginning of object key string`},
		{"column after an escaped 0xFF", "[{\"a\":\"\xff\", x}]", `t.json:1:12: invalid JSON: invalid character 'x' looking for beginning of object key string`},
		{"columns after rewriting on earlier lines", "[{\"a\":NaN,\"b\":\"é\"},\n{\"a\":-Infinity,\n x}]", `t.json:3:2: invalid JSON: invalid character 'x' looking for beginning of object key string`},
		// A string holding 0xFF, which the rewriter escapes to keep
		// markers apart, is no UTF-8 and no marker.
		{"a string that looks like a marker", "[{\"metadata\":{\"s\":\"\xffN\",\"t\":\"a\\\\\xffI\"}}]", `t.json:1:20: invalid UTF-8: byte 0xff is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
		{"Latin-1", "[{\"group\":\"caf\xe9\"},\n {\"group\":\"caf\xe8\"}]", `t.json:1:15: invalid UTF-8: byte 0xe9 is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)`},
	}
	runErrorCases(t, "t.json", tests)
}

func TestJSONArraySkipInvalid(t *testing.T) {
	input := "[{},\n5,\n{\"done\":\"no\"},\n{\"id\":null}, null]"
	res, err := readString("t.json", input, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{{id: "0", src: "t.json", line: 1, element: 1}, {id: "1", src: "t.json", line: 4}})
	if res.Skipped != 3 {
		t.Errorf("Skipped = %d, want 3", res.Skipped)
	}

	// A syntax error leaves nothing to resume from.
	_, err = readString("t.json", "[{},\n{x}, {}]", Options{SkipInvalid: true})
	checkLineError(t, err, `t.json:2:2: invalid JSON: invalid character 'x' looking for beginning of object key string`)
}

func TestJSONArrayReadError(t *testing.T) {
	r := ioErrReader{data: "[{},\n{}, {\"id\"", err: errors.New("disk on fire")}
	_, err := Read(&r, "t.json", 0, Options{})
	if err == nil || err.Error() != "t.json:2: read: disk on fire" || !errors.Is(err, r.err) {
		t.Errorf("error %v, want t.json:2: read: disk on fire wrapping the cause", err)
	}
}
