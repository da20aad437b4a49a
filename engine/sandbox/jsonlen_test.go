package sandbox

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONLenMatchesFromJSON: jsonLen counts what len(fromJSON(v)) counts
// on the text of arrays and objects, nested, with strings holding commas,
// brackets and escaped quotes, empty, and spaced; an array given as one
// is counted; null is null; text that is not JSON, or JSON that is neither
// an array nor an object, and a value of another type are errors.
func TestJSONLenMatchesFromJSON(t *testing.T) {
	for _, text := range []string{
		`[]`, `[ ]`, `{}`, "[\n]", `[1]`, `[1, 2, 3]`, `[[1, 2], [3]]`, `[{"a": [1, 2]}, 3]`,
		`["a,b", "c]", "d\"e,f", "\\"]`, `{"a": 1, "b": {"c": 2, "d": 3}}`, ` [1,2] `, `[null, true, "", -1.5e3]`,
	} {
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		want := 0
		switch v := v.(type) {
		case []any:
			want = len(v)
		case map[string]any:
			want = len(v)
		}
		got, err := jsonLen(text)
		if err != nil || got != want {
			t.Errorf("jsonLen(%s) = %v, %v; want %d", text, got, err, want)
		}
	}
	if got, err := jsonLen([]any{1, "a"}); err != nil || got != 2 {
		t.Errorf("jsonLen of an array = %v, %v; want 2", got, err)
	}
	if got, err := jsonLen(nil); err != nil || got != nil {
		t.Errorf("jsonLen(null) = %v, %v; want null", got, err)
	}
	for _, bad := range []any{`[1,,2]`, `[1, 2`, `x`, `3`, `"[1, 2]"`, `null`, 3.0} {
		if got, err := jsonLen(bad); err == nil {
			t.Errorf("jsonLen(%v) = %v, want an error", bad, got)
		}
	}
}

// TestJSONLenInExpressions: an expression calls jsonLen on a record's
// nested value, held as its JSON text.
func TestJSONLenInExpressions(t *testing.T) {
	p, err := Compile(`jsonLen(tokens)`, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	tokens := "[" + strings.Repeat("12, ", 999) + "12]"
	if v, err := p.Run(map[string]any{"tokens": tokens}); err != nil || v != 1000 {
		t.Errorf("= %v, %v; want 1000", v, err)
	}
	if v, err := p.Run(map[string]any{"tokens": nil}); err != nil || v != nil {
		t.Errorf("on null: %v, %v; want null", v, err)
	}
}
