package loaders

import "testing"

// TestSyntaxErrorNamesTheCharacter reads JSON with characters that are no
// JSON where they stand: the message names each whole, not its first byte.
func TestSyntaxErrorNamesTheCharacter(t *testing.T) {
	for _, c := range []struct{ name, input, want string }{
		{"t.jsonl", "{\u201cid\u201d: 1}", `t.jsonl:1:2: invalid JSON: invalid character '“' (U+201C) looking for beginning of object key string`},
		{"t.json", "[{\u201cid\u201d: 1}]", `t.json:1:3: invalid JSON: invalid character '“' (U+201C) looking for beginning of object key string`},
		{"t.jsonl", "{\"a\":\u009b1}", `t.jsonl:1:6: invalid JSON: invalid character '\u009b' (U+009B) looking for beginning of value`},
		{"t.jsonl", "{\"a\":1}\n{\"a\":\xff}", `t.jsonl:2:6: invalid JSON: invalid byte 0xff (not UTF-8) looking for beginning of value`},
		{"t.jsonl", `{"a":x}`, `t.jsonl:1:6: invalid JSON: invalid character 'x' looking for beginning of value`},
	} {
		_, err := readString(c.name, c.input, Options{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error\n%v\nwant\n%s", c.input, err, c.want)
		}
	}
}
