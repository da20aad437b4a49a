package textsafe

import (
	"strings"
	"testing"
)

func TestHostileSequencesAreNeutralised(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "gsm8k-0412", "gsm8k-0412"},
		{"unicode and emoji", "réponse 🚀 答え", "réponse 🚀 答え"},
		{"CSI colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"CSI clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"OSC 52 clipboard", "\x1b]52;c;ZXZpbA==\x07", `\x1b]52;c;ZXZpbA==\x07`},
		{"OSC title with ST", "\x1b]0;pwned\x1b\\", `\x1b]0;pwned\x1b\`},
		{"DCS", "\x1bPq#0;2;0;0;0\x1b\\", `\x1bPq#0;2;0;0;0\x1b\`},
		{"C1 CSI", "a\u009b31mb", `a\u009b31mb`},
		{"C0 bell and backspace", "a\x07b\x08c", `a\x07b\x08c`},
		{"carriage return", "safe\revil", `safe\revil`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"bidi override", "abc\u202eevil\u202c", `abc\u202eevil\u202c`},
		{"bidi isolate", "\u2067x\u2069", `\u2067x\u2069`},
		{"invalid utf-8", "a\xffb", `a\xffb`},
		{"newline on one line", "a\nb\tc", `a\nb\tc`},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.want {
			t.Errorf("%s: Line(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
		if strings.ContainsAny(Line(c.in), "\x1b\x07\x08\r\n\t\x7f\u009b\u202e") {
			t.Errorf("%s: Line output still holds a control character", c.name)
		}
	}
}

func TestTextKeepsLines(t *testing.T) {
	got := Text("line 1\n\tindented\x1b[2K\r")
	want := "line 1\n    indented\\x1b[2K\\r"
	if got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31m", "\u009b", "\u202e", "\xff\xfe", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Text(s)} {
			for _, r := range out {
				if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || isBidiControl(r) {
					t.Fatalf("control rune %U left in %q (from %q)", r, out, s)
				}
			}
		}
		if strings.ContainsRune(Line(s), '\n') {
			t.Fatalf("Line kept a newline: %q", Line(s))
		}
	})
}
