package textsafe

import (
	"strings"
	"testing"
	"unicode"
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

// TestFormatCharactersAreEscaped: the invisible format characters (Unicode
// category Cf) are shown escaped as the bidirectional ones are, except the
// zero-width joiners of an emoji ZWJ sequence and the tags of a flag's tag
// sequence, which the emoji needs.
func TestFormatCharactersAreEscaped(t *testing.T) {
	const (
		family  = "\U0001F468\u200d\U0001F469\u200d\U0001F467" // man ZWJ woman ZWJ girl
		england = "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"
	)
	cases := []struct{ name, in, want string }{
		{"zero-width space", "zero\u200bwidth", `zero\u200bwidth`},
		{"zero-width non-joiner", "a\u200cb", `a\u200cb`},
		{"zero-width joiner between letters", "a\u200db", `a\u200db`},
		{"left-to-right mark", "a\u200eb", `a\u200eb`},
		{"word joiner and invisible operators", "\u2060x\u2061\u2062\u2063\u2064", `\u2060x\u2061\u2062\u2063\u2064`},
		{"byte order mark", "\ufeffid", `\ufeffid`},
		{"soft hyphen", "pass\u00adword", `pass\u00adword`},
		{"Arabic letter mark", "a\u061cb", `a\u061cb`},
		{"interlinear annotation", "\ufff9a\ufffab\ufffb", `\ufff9a\ufffab\ufffb`},
		{"tag outside a flag", "a\U000E0041b", `a\ue0041b`},
		{"emoji ZWJ sequence", family, family},
		{"emoji ZWJ sequence with skin tones", "\U0001F469\U0001F3FD\u200d\U0001F4BB", "\U0001F469\U0001F3FD\u200d\U0001F4BB"},
		{"ZWJ sequence among text", "id " + family + "\u200b!", "id " + family + `\u200b!`},
		{"ZWJ after an emoji, before a letter", "\U0001F468\u200da", "\U0001F468" + `\u200da`},
		{"ZWJ before an emoji, after a letter", "a\u200d\U0001F469", `a\u200d` + "\U0001F469"},
		{"ZWJ at the end", "\U0001F468\u200d", "\U0001F468" + `\u200d`},
		{"ZWJ then a combining mark", "\U0001F468\u200d\u0301", "\U0001F468" + `\u200d` + "\u0301"},
		{"two ZWJs", "\U0001F468\u200d\u200d\U0001F469", "\U0001F468" + `\u200d\u200d` + "\U0001F469"},
		{"flag tag sequence", england, england},
		{"flag tag sequence and a zero-width space", england + "\u200b", england + `\u200b`},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.want {
			t.Errorf("%s: Line(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
		if got := Text(c.in); got != c.want {
			t.Errorf("%s: Text(%q) = %q, want %q", c.name, c.in, got, c.want)
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
	for _, s := range []string{"", "plain", "\x1b[31m", "\u009b", "\u202e", "\xff\xfe", "a\nb", "a\u200db", "\U0001F468\u200d\U0001F469"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Text(s)} {
			for _, r := range out {
				if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Cf, r) && r != zeroWidthJoiner && (r < tagFirst || r > tagLast) {
					t.Fatalf("control rune %U left in %q (from %q)", r, out, s)
				}
			}
		}
		if strings.ContainsRune(Line(s), '\n') {
			t.Fatalf("Line kept a newline: %q", Line(s))
		}
	})
}
