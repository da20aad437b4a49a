// Package textsafe makes untrusted text (ids, responses, metadata, messages
// quoting them) safe to print on a terminal.
//
// A terminal acts on control characters: ESC starts CSI, OSC (title
// changes, OSC 52 clipboard writes), DCS and other sequences; C1 controls
// (U+0080..U+009F) are 8-bit forms of the same introducers; CR and BS
// overwrite what was printed; bidirectional overrides reorder it; format
// characters (Unicode category Cf: zero-width spaces and joiners, word
// joiners, the byte order mark, the bidirectional controls) hide text or
// make two different strings look the same; so do the variation selectors
// and the rest of plane 14 (tags, unassigned code points), invisible too,
// and the other code points Unicode says to ignore in display (the Hangul
// fillers, which look like spaces or nothing); the line and paragraph
// separators break lines on some terminals and in none of the widths the
// views compute. textsafe shows every such rune
// escaped as visible text (ESC becomes `\x1b`, U+200B `\u200b`, U+E0041
// `\U000e0041`), which neutralises the whole sequence it introduced: what
// follows the introducer is plain printable text. The format characters and
// selectors an emoji or a word needs are kept (see flagTags, joinsEmoji,
// joinsLetters and presentsEmoji).
package textsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Line returns s safe to print on one line: every control character,
// newlines and tabs included, is shown escaped.
func Line(s string) string { return clean(s, false) }

// Text returns s safe to print as a block: newlines are kept, tabs become
// four spaces (so that widths stay computable), every other control
// character is shown escaped.
func Text(s string) string { return clean(s, true) }

func clean(s string, multiline bool) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	// An emoji's joiners are kept only inside its grapheme cluster: the
	// clusters are found when s holds a joiner.
	inClusters := strings.ContainsRune(s, zeroWidthJoiner)
	clusterEnd, state := 0, -1
	for i := 0; i < len(s); {
		for inClusters && i >= clusterEnd {
			var cluster string
			cluster, _, _, state = uniseg.FirstGraphemeClusterInString(s[clusterEnd:], state)
			clusterEnd += len(cluster)
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case multiline && r == '\n':
			b.WriteByte('\n')
		case multiline && r == '\t':
			b.WriteString("    ")
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == blackFlag:
			// A flag's tags are written with it; any other tag is escaped.
			size += flagTagsLength(s[i+size:])
			b.WriteString(s[i : i+size])
		case r >= 0x80 && r <= 0x9f, isPlane14(r), r == lineSeparator, r == paragraphSeparator,
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
			isVariationSelector(r) && !presentsEmoji(s, i),
			unicode.Is(unicode.Cf, r) && !joinsLetters(s, i, size) && !(inClusters && joinsEmoji(s[:clusterEnd], i, size)):
			escapeRune(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// escapeRune writes r as `\uXXXX`, or `\UXXXXXXXX` above U+FFFF: a fixed
// number of digits, so that the text after the escape does not read as
// more of it (U+E0041 then b is `\U000e0041b`, not `\ue0041b`).
func escapeRune(b *strings.Builder, r rune) {
	if r > 0xffff {
		fmt.Fprintf(b, `\U%08x`, r)
	} else {
		fmt.Fprintf(b, `\u%04x`, r)
	}
}

const (
	lineSeparator      = '\u2028'
	paragraphSeparator = '\u2029'
	zeroWidthNonJoiner = '\u200c'
	zeroWidthJoiner    = '\u200d'
	blackFlag          = '\U0001f3f4'
)

// flagTags are the tag sequences that follow 🏴 in the flags of Unicode's
// recommended emoji set (RGI): England, Scotland and Wales. Tags are
// invisible, so hidden text can be written in them ("ASCII smuggling"):
// these three are kept, any other tag is escaped.
var flagTags = [...]string{
	"\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", // gbeng
	"\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", // gbsct
	"\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f", // gbwls
}

// flagTagsLength returns the length of the flag tag sequence rest starts
// with (rest follows a 🏴), 0 when it starts with none.
func flagTagsLength(rest string) int {
	for _, tags := range flagTags {
		if strings.HasPrefix(rest, tags) {
			return len(tags)
		}
	}
	return 0
}

// joinsLetters reports whether the rune at s[i:i+size] is a zero-width
// non-joiner or joiner between two letters of a script that joins
// (isJoinedLetter), the letter
// before it maybe followed by combining marks: Persian writes its
// non-joiner inside words (می‌خواهم), Indic scripts their joiners after a
// virama (क्‍ष), so escaping them there garbles a multilingual prompt.
// Two joiners in a row, or one beside ASCII or a letter of another
// script, are escaped.
func joinsLetters(s string, i, size int) bool {
	if r, _ := utf8.DecodeRuneInString(s[i:]); r != zeroWidthNonJoiner && r != zeroWidthJoiner {
		return false
	}
	next, _ := utf8.DecodeRuneInString(s[i+size:])
	if !isJoinedLetter(next) {
		return false
	}
	for before := s[:i]; before != ""; {
		prev, n := utf8.DecodeLastRuneInString(before)
		if !unicode.Is(unicode.M, prev) {
			return isJoinedLetter(prev)
		}
		before = before[:len(before)-n]
	}
	return false
}

// isJoinedLetter reports whether r is a letter of a script whose words
// take zero-width joiners and non-joiners (Arabic and the scripts written
// like it, the Brahmic scripts): elsewhere (Latin, Cyrillic, CJK) an
// invisible joiner makes two ids that look alike differ.
func isJoinedLetter(r rune) bool {
	return unicode.IsLetter(r) && unicode.In(r, joinedScripts...)
}

// joinedScripts are the scripts whose text uses joiners within words.
var joinedScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko, unicode.Mongolian,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
}

// joinsEmoji reports whether the rune at s[i:i+size] is a zero-width
// joiner between two emoji (man, ZWJ, woman: a family; woman, skin tone,
// ZWJ, laptop; white flag, VS16, ZWJ, rainbow), s ending where the
// joiner's grapheme cluster does. Its next rune is in its cluster, which
// Unicode's rule GB11 allows only after an emoji, and is a symbol
// (category So, as emoji are), not a mark or a letter that extends a
// cluster; before it is a symbol then only skin tones and VS16, so that
// no character escaped separates the emoji from the joiner.
func joinsEmoji(s string, i, size int) bool {
	if r, _ := utf8.DecodeRuneInString(s[i:]); r != zeroWidthJoiner {
		return false
	}
	if next, n := utf8.DecodeRuneInString(s[i+size:]); n == 0 || !unicode.Is(unicode.So, next) {
		return false
	}
	for before := s[:i]; before != ""; {
		prev, n := utf8.DecodeLastRuneInString(before)
		if !isSkinTone(prev) && prev != emojiPresentation {
			return unicode.Is(unicode.So, prev)
		}
		before = before[:len(before)-n]
	}
	return false
}

const (
	textPresentation  = '\ufe0e' // VS15: shown as text, not as an emoji
	emojiPresentation = '\ufe0f' // VS16: shown as an emoji, not as text
)

// isVariationSelector reports whether r is one of the 256 variation
// selectors (U+FE00..U+FE0F, U+E0100..U+E01EF): invisible, they choose a
// glyph, and a run of them can carry hidden bytes.
func isVariationSelector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef)
}

// presentsEmoji reports whether the rune at s[i:] is VS15 or VS16 right
// after a character that takes it (emojiVariationBases: ❤ VS16 is the red
// heart emoji, 1 VS16 U+20E3 a keycap). Any other variation selector, or
// one after another selector or a mark, is escaped.
func presentsEmoji(s string, i int) bool {
	if r, _ := utf8.DecodeRuneInString(s[i:]); r != textPresentation && r != emojiPresentation {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.Is(emojiVariationBases, prev)
}

// isPlane14 reports whether r is in plane 14 (U+E0000..U+EFFFF), which
// holds only invisible code points: the tags, the variation selectors
// 17 to 256 and unassigned ones (which a later Unicode may make format
// characters).
func isPlane14(r rune) bool { return r >= 0xe0000 && r <= 0xeffff }

func isSkinTone(r rune) bool { return r >= '\U0001f3fb' && r <= '\U0001f3ff' }

// isPlain reports whether s is printable ASCII: the common case, returned
// as is without allocating.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
