// Package textsafe makes untrusted text (ids, responses, metadata, messages
// quoting them) safe to print on a terminal.
//
// A terminal acts on control characters: ESC starts CSI, OSC (title
// changes, OSC 52 clipboard writes), DCS and other sequences; C1 controls
// (U+0080..U+009F) are 8-bit forms of the same introducers; CR and BS
// overwrite what was printed; bidirectional overrides reorder it; format
// characters (Unicode category Cf: zero-width spaces and joiners, word
// joiners, the byte order mark, the bidirectional controls) hide text or
// make two different strings look the same. textsafe shows every such rune
// escaped as visible text (ESC becomes `\x1b`, U+200B `\u200b`), which
// neutralises the whole sequence it introduced: what follows the introducer
// is plain printable text. The format characters an emoji needs are kept
// (see keptFormat).
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
	if !mayJoinEmoji(s) {
		appendClean(&b, s, multiline, false)
		return b.String()
	}
	for rest, state := s, -1; rest != ""; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		appendClean(&b, cluster, multiline, true)
	}
	return b.String()
}

// appendClean appends s to b with every control and format character
// escaped; when s is one grapheme cluster (isCluster), the format
// characters keptFormat allows stay.
func appendClean(b *strings.Builder, s string, multiline, isCluster bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
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
			fmt.Fprintf(b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f,
			unicode.Is(unicode.Cf, r) && !(isCluster && keptFormat(s, i, r, size)):
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
}

const (
	zeroWidthJoiner = '\u200d'
	blackFlag       = '\U0001f3f4'
	tagFirst        = '\U000e0020' // the tags: TAG SPACE..CANCEL TAG
	tagLast         = '\U000e007f'
)

// mayJoinEmoji reports whether s holds a zero-width joiner or a tag: the
// format characters keptFormat may keep, which need s split into grapheme
// clusters.
func mayJoinEmoji(s string) bool {
	return strings.ContainsRune(s, zeroWidthJoiner) ||
		strings.Contains(s, "\xf3\xa0\x80") || strings.Contains(s, "\xf3\xa0\x81") // the UTF-8 of U+E0000..U+E007F
}

// keptFormat reports whether the format character r at cluster[i:i+size]
// belongs to the emoji that grapheme cluster is: a zero-width joiner
// between two emoji (man, ZWJ, woman: a family; it joins the cluster's next rune only when that
// is an emoji, as Unicode's rule GB11 has it, not a mark, a modifier or a
// format character), or a tag of a flag's tag sequence (🏴 and tags: the
// flag of England).
func keptFormat(cluster string, i int, r rune, size int) bool {
	switch {
	case r == zeroWidthJoiner:
		next, n := utf8.DecodeRuneInString(cluster[i+size:])
		return n > 0 && !unicode.In(next, unicode.M, unicode.Cf, unicode.Sk)
	case r >= tagFirst && r <= tagLast:
		first, _ := utf8.DecodeRuneInString(cluster)
		return first == blackFlag
	}
	return false
}

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
