package output

import (
	"encoding/json"
	"testing"
)

// TestSafeJSON escapes what a terminal acts on and encoding/json leaves
// as it is, and keeps the value.
func TestSafeJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain é 🚀", `"plain é 🚀"`},
		{"\x7f", `"\u007f"`},
		{"a\u009b31mb", `"a\u009b31mb"`},
		{"\u0090dcs\u009c", `"\u0090dcs\u009c"`},
		{"abc\u202eevil\u202c", `"abc\u202eevil\u202c"`},
		{"\u2066x\u2069\u200e\u200f\u061c", `"\u2066x\u2069\u200e\u200f\u061c"`},
		{"\x1b[2J", `"\u001b[2J"`}, // encoding/json's own escape
		{"zero\u200bwidth\u200c\u200d\u2060\ufeff\u00ad", `"zero\u200bwidth\u200c\u200d\u2060\ufeff\u00ad"`},
		{"\U0001F468\u200d\U0001F469", `"👨\u200d👩"`}, // an emoji's joiner too: the escape loses nothing
		{"a\ufe00\u2764\ufe0f", `"a\ufe00❤\ufe0f"`},
		{"tag\U000E0041", `"tag\udb40\udc41"`},
		{"vs17\U000E0100 unassigned\U000E0002", `"vs17\udb40\udd00 unassigned\udb40\udc02"`},
	} {
		b, _ := json.Marshal(c.in)
		got := SafeJSON(b)
		if string(got) != c.want {
			t.Errorf("SafeJSON(%s) = %s, want %s", b, got, c.want)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil || back != c.in {
			t.Errorf("%s reads back as %q (%v), want %q", got, back, err, c.in)
		}
	}
}
