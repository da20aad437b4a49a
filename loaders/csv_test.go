package loaders

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCSV(t *testing.T) {
	const src = "t.csv"
	nan, inf := math.NaN(), math.Inf(1)
	tests := []readCase{
		{"every column",
			"id,batch,group,step_count,response,done,metadata,accuracy,note,empty\n" +
				"a,2,g,5,\"hello, <world> & \"\"you\"\"\",false,\"{\"\"k\"\":1,\"\"s\"\":\"\"x\"\"}\",0.5,some text,\n",
			[]want{{id: "a", batch: 2, group: "g", steps: 5, resp: `"hello, <world> & \"you\""`, notDone: true,
				meta: map[string]any{"accuracy": 0.5, "note": "some text", "empty": nil, "k": 1.0, "s": "x"}, src: src, line: 2}}},
		{"empty cells take the defaults",
			"id,batch,group,step_count,response,done,metadata\n,,,,,,\n,,,,,,\n",
			[]want{{id: "0", src: src, line: 2}, {id: "1", src: src, line: 3}}},
		{"only metadata columns",
			"accuracy,score\n1,-2\n",
			[]want{{id: "0", meta: map[string]any{"accuracy": 1.0, "score": -2.0}, src: src, line: 2}}},
		{"metadata cells",
			"x\nnan\nNaN\ninf\n-Inf\nInfinity\n-INFINITY\n 2.5 \n1e400\n abc \n  \n1_000\n0x1p-2\n",
			[]want{
				{id: "0", meta: map[string]any{"x": nan}, src: src, line: 2},
				{id: "1", meta: map[string]any{"x": nan}, src: src, line: 3},
				{id: "2", meta: map[string]any{"x": inf}, src: src, line: 4},
				{id: "3", meta: map[string]any{"x": -inf}, src: src, line: 5},
				{id: "4", meta: map[string]any{"x": inf}, src: src, line: 6},
				{id: "5", meta: map[string]any{"x": -inf}, src: src, line: 7},
				{id: "6", meta: map[string]any{"x": 2.5}, src: src, line: 8},
				{id: "7", meta: map[string]any{"x": inf}, src: src, line: 9},
				{id: "8", meta: map[string]any{"x": " abc "}, src: src, line: 10},
				{id: "9", meta: map[string]any{"x": nil}, src: src, line: 11},
				{id: "10", meta: map[string]any{"x": 1000.0}, src: src, line: 12},
				{id: "11", meta: map[string]any{"x": 0.25}, src: src, line: 13},
			}},
		// As pandas' to_csv and Python's csv write a bool, and spreadsheets
		// export one; the trajectory fields keep the text as written.
		{"bool cells",
			"id,group,response,x\nTrue,False,True,True\na,g,r,False\nb,g,r,true\nc,g,r, false \nd,g,r,TRUE\ne,g,r,FALSE\nf,g,r,tRUE\ng,g,r,yes\n",
			[]want{
				{id: "True", group: "False", resp: `"True"`, meta: map[string]any{"x": true}, src: src, line: 2},
				{id: "a", group: "g", resp: `"r"`, meta: map[string]any{"x": false}, src: src, line: 3},
				{id: "b", group: "g", resp: `"r"`, meta: map[string]any{"x": true}, src: src, line: 4},
				{id: "c", group: "g", resp: `"r"`, meta: map[string]any{"x": false}, src: src, line: 5},
				{id: "d", group: "g", resp: `"r"`, meta: map[string]any{"x": true}, src: src, line: 6},
				{id: "e", group: "g", resp: `"r"`, meta: map[string]any{"x": false}, src: src, line: 7},
				{id: "f", group: "g", resp: `"r"`, meta: map[string]any{"x": "tRUE"}, src: src, line: 8},
				{id: "g", group: "g", resp: `"r"`, meta: map[string]any{"x": "yes"}, src: src, line: 9},
			}},
		{"done cells",
			"id,done\na,TRUE\nb,False\nc,1\nd,0\ne, false \n",
			[]want{{id: "a", src: src, line: 2}, {id: "b", notDone: true, src: src, line: 3}, {id: "c", src: src, line: 4},
				{id: "d", notDone: true, src: src, line: 5}, {id: "e", notDone: true, src: src, line: 6}}},
		{"integer cells",
			"batch,step_count\n3.0,4e0\n +5 , 6 \n-1,0\n",
			[]want{{id: "0", batch: 3, steps: 4, src: src, line: 2}, {id: "1", batch: 5, steps: 6, src: src, line: 3},
				{id: "2", batch: -1, src: src, line: 4}}},
		{"header names are trimmed, unnamed columns ignored",
			",  id , group\n0,a,g\n1,b,h\n",
			[]want{{id: "a", group: "g", src: src, line: 2}, {id: "b", group: "h", src: src, line: 3}}},
		{"id and group are kept as written",
			"id,group\n 7 ,1.50\n",
			[]want{{id: " 7 ", group: "1.50", src: src, line: 2}}},
		{"a row starts where its first field does",
			"id,response\na,\"line1\nline2\"\n\nb,x\n",
			[]want{{id: "a", resp: `"line1\nline2"`, src: src, line: 2}, {id: "b", resp: `"x"`, src: src, line: 5}}},
		{"byte order mark and CRLF",
			"\ufeffid,x\r\na,1\r\n",
			[]want{{id: "a", meta: map[string]any{"x": 1.0}, src: src, line: 2}}},
		{"metadata column with non-finite tokens",
			"id,metadata\na,\"{\"\"y\"\":NaN,\"\"z\"\":\"\"NaN\"\"}\"\n",
			[]want{{id: "a", meta: map[string]any{"y": nan, "z": "NaN"}, src: src, line: 2}}},
	}
	runReadCases(t, src, tests)
}

func TestCSVErrors(t *testing.T) {
	tests := []errorCase{
		{"short row", "id,x\na,1\nb\n", `t.csv:3: row has 1 field, header has 2`},
		{"long row", "id,x\na,1,2\n", `t.csv:2:5: row has 3 fields, header has 2`},
		{"duplicate column", "id,x,x\n", `t.csv:1:6: duplicate column "x"`},
		{"duplicate after trimming", "id, id\n", `t.csv:1:4: duplicate column "id"`},
		{"duplicate after a byte order mark", "\ufeffx,x\n", `t.csv:1:6: duplicate column "x"`},
		{"bare quote", "id,x\na\"b,1\n", `t.csv:2:2: bare " in non-quoted-field`},
		{"bad header", "a\"b\nx\n", `t.csv:1:2: bare " in non-quoted-field`},
		// A quote never closed or closed amiss is said where its field opens.
		{"unterminated quote", "id,x\na,\"1\n", `t.csv:2:3: extraneous or missing " in quoted-field opened here (found at line 2, column 6)`},
		{"unterminated quote, rows after", "id,group,acc\n1,g,1\n2,\"g,0\n3,g,1\n", `t.csv:3:3: extraneous or missing " in quoted-field opened here (found at line 4, column 7)`},
		{"unterminated quote after quoted fields", "a,b,c\n\"x,y\",zz,\"q\n", `t.csv:2:10: extraneous or missing " in quoted-field opened here (found at line 2, column 13)`},
		{"stray quote after a field of two lines", "a,b,c\n\"x\ny\"\"z\",\"q\"r,s\n", `t.csv:3:7: extraneous or missing " in quoted-field opened here (found at line 3, column 9)`},
		{"unterminated first field", "a,b\n\"x,y\n", `t.csv:2:1: extraneous or missing " in quoted-field opened here (found at line 2, column 6)`},
		{"batch", "id,batch\na,x\n", `t.csv:2:3: batch: must be an integer, found "x"`},
		{"batch fraction", "batch\n1.5\n", `t.csv:2:1: batch: must be an integer, found "1.5"`},
		{"batch too large", "batch\n1e19\n", `t.csv:2:1: batch: must be an integer in the 64-bit range, found "1e19"`},
		{"step_count negative", "step_count\n-1\n", `t.csv:2:1: step_count: must be an integer >= 0, found "-1"`},
		{"step_count NaN", "step_count\nnan\n", `t.csv:2:1: step_count: must be an integer, found "nan"`},
		{"long cell shortened", "batch\n" + strings.Repeat("é", 50) + "\n", `t.csv:2:1: batch: must be an integer, found "` + strings.Repeat("é", 40) + `"…`},
		{"done", "done\nyes\n", `t.csv:2:1: done: must be true, false, 1 or 0, found "yes"`},
		{"metadata not an object", "metadata\n[1]\n", `t.csv:2:1: metadata: expected a JSON object, found an array`},
		{"metadata invalid", "metadata\n{x}\n", `t.csv:2:1: metadata: invalid JSON: invalid character 'x' looking for beginning of object key string`},
		{"metadata nested", "metadata\n\"{\"\"a\"\":[1]}\"\n", `t.csv:2:1: metadata.a: must be a number, string, bool or null, found an array`},
		{"metadata given twice", "a,metadata\n1,\"{\"\"a\"\":1}\"\n", `t.csv:2:3: metadata.a: given both as a column and in the metadata column`},
	}
	runErrorCases(t, "t.csv", tests)
}

func TestCSVSkipInvalid(t *testing.T) {
	input := "id,batch,x\n,1,a\n,2\n,z,b\nq\"r,3,c\n,4,d\n"
	res, err := readString("t.csv", input, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "0", batch: 1, meta: map[string]any{"x": "a"}, src: "t.csv", line: 2},
		{id: "1", batch: 4, meta: map[string]any{"x": "d"}, src: "t.csv", line: 6},
	})
	wantReasons := []string{
		`t.csv:3: row has 2 fields, header has 3`,
		`t.csv:4:2: batch: must be an integer, found "z"`,
		`t.csv:5:2: bare " in non-quoted-field`,
	}
	if res.Skipped != len(wantReasons) || len(res.SkipReasons) != len(wantReasons) {
		t.Fatalf("Skipped %d: %v", res.Skipped, res.SkipReasons)
	}
	for i, r := range res.SkipReasons {
		if r.Error() != wantReasons[i] {
			t.Errorf("reason %d = %q, want %q", i, r, wantReasons[i])
		}
	}

	// A bad header leaves no layout to read rows with.
	_, err = readString("t.csv", "x,x\n1,2\n", Options{SkipInvalid: true})
	checkLineError(t, err, `t.csv:1:3: duplicate column "x"`)
	_, err = readString("t.csv", "x\"y\n1\n", Options{SkipInvalid: true})
	checkLineError(t, err, `t.csv:1:2: bare " in non-quoted-field`)
}

func TestCSVReadError(t *testing.T) {
	r := ioErrReader{data: "id\na\n", err: errors.New("disk on fire")}
	_, err := Read(&r, "t.csv", 0, Options{SkipInvalid: true})
	if err == nil || err.Error() != "t.csv: read: disk on fire" || !errors.Is(err, r.err) {
		t.Errorf("error %v, want t.csv: read: disk on fire wrapping the cause", err)
	}
}
