package common

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// MissingValue shows an objective its record has no value of, missing,
// null or NaN, which nansum counts 0 in the score
// (engine.Evaluation.Missing): TRL's None reward, which is no wrong
// answer, so not shown as the 0 it counts; compute writes it null.
const MissingValue = "null"

// NoObjective shows an objective the trajectory's source does not have
// (--source-by: engine.Evaluation.HasObjective), whose 0 the engine holds
// and compute writes null: "-", as for what does not apply.
const NoObjective = "-"

// AbsentWidth is the most cells AbsentValue's marks take in ev: none
// when a trajectory cannot lack a value (CanLackValues).
func AbsentWidth(ev *engine.Evaluation) int {
	w := 0
	if ev.Absent != nil {
		w = len(MissingValue)
	}
	if ev.HasSources() {
		w = max(w, len(NoObjective))
	}
	return w
}

// AbsentValue returns what shows trajectory i's objective k in ev when it
// has no value of it: NoObjective where its source lacks k, MissingValue
// where its record has none; "" where it has one.
func AbsentValue(ev *engine.Evaluation, i, k int) string {
	switch {
	case !ev.HasObjective(i, k):
		return NoObjective
	case ev.Missing(i, k):
		return MissingValue
	}
	return ""
}

// CanLackValues reports whether a trajectory of ev may have no value of
// an objective (AbsentValue): under nansum, or with sources.
func CanLackValues(ev *engine.Evaluation) bool { return ev.Absent != nil || ev.HasSources() }

// ObjectiveValue shows trajectory i's objective k in ev compactly: its raw
// value (FormatValue), AbsentValue's mark where it has none.
func ObjectiveValue(ev *engine.Evaluation, i, k int) string {
	if mark := AbsentValue(ev, i, k); mark != "" {
		return mark
	}
	return FormatValue(ev.Values[i*ev.M+k])
}

// FormatValue shows one number of a trajectory or a panel compactly, with
// four significant digits where FormatNumber's columns keep four decimals,
// and +Inf as "inf" (how docs/CONTRACT.md, Output of compute, prints an
// infinite crowding distance).
// Like FormatNumber, it shows 0 below 1e-10: the rounding error of a sum
// that is 0 in exact arithmetic (a mean of z-scores), not a magnitude.
func FormatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case math.Abs(v) < 1e-10:
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// FitLine returns s, from data, safe to print on one line and cut to width
// cells (wide characters count twice).
func FitLine(s string, width int) string {
	return ansi.Truncate(textsafe.Line(s), width, "…")
}

// FitWords returns s, its styles kept, cut to width cells at the end of a
// word: the words that fit, without the punctuation that joined them to
// the next ("z-scored;", " ·"), then "…"; a parenthesis is kept whole or
// left out. A first word wider than width alone is cut within it, as
// nothing shorter says more. It escapes nothing: text from data in s must
// be made safe before (textsafe).
func FitWords(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	plain := ansi.Strip(s)
	kept := 0 // cells of the longest run of words that fits with "…"
	for i, r := range plain {
		if r != ' ' {
			continue
		}
		words := strings.TrimRight(plain[:i], " ·;,:(")
		cells := ansi.StringWidth(words)
		if cells+1 > width {
			break
		}
		if words != "" && strings.Count(words, "(") <= strings.Count(words, ")") {
			kept = cells
		}
	}
	if kept == 0 {
		return ansi.Truncate(s, width, "…")
	}
	return ansi.Truncate(s, kept+1, "…")
}

// WrapAtSpaces wraps s to width cells at its spaces only, each of its
// lines a paragraph, a word wider than width cut in pieces. ansi.Wrap and
// lipgloss.Wrap break at hyphens too (a flag such as --task-metric is
// split) and let a lone " -" overflow the line, where a box cuts the
// minus sign of a formula ("s - mean(s)"). A lone operator stays with the
// word before it, so that a line breaks after it, never before: a line
// starting "- mean(s)" reads like a bullet.
func WrapAtSpaces(s string, width int) string {
	width = max(width, 1)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range operatorsKept(strings.Fields(para)) {
			for ansi.StringWidth(word) > width {
				if line != "" {
					lines, line = append(lines, line), ""
				}
				piece := ansi.Truncate(word, width, "")
				if ansi.StringWidth(piece) == 0 {
					// A character wider than the line (double width in
					// one cell) goes alone on its line, overflowing it,
					// rather than never being taken.
					piece = firstGrapheme(word)
				}
				lines = append(lines, piece)
				word = ansi.TruncateLeft(word, ansi.StringWidth(piece), "")
			}
			switch {
			case line == "":
				line = word
			case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= width:
				line += " " + word
			default:
				lines, line = append(lines, line), word
			}
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// firstGrapheme returns the leading escape sequences of s and its first
// grapheme cluster that takes room on the screen.
func firstGrapheme(s string) string {
	for cells := 1; cells <= ansi.StringWidth(s); cells++ {
		if piece := ansi.Truncate(s, cells, ""); ansi.StringWidth(piece) > 0 {
			return piece
		}
	}
	return s
}

// operatorsKept returns words with each lone operator ("-", "×", ...)
// joined to the word before it by a space.
func operatorsKept(words []string) []string {
	var kept []string
	for _, w := range words {
		if len(kept) > 0 && strings.Contains("-+=×*/·−", w) && w != "" {
			kept[len(kept)-1] += " " + w
			continue
		}
		kept = append(kept, w)
	}
	return kept
}

// FitMiddle returns s, from data, safe to print on one line and cut to
// width cells in its middle: its head and its tail kept (half each), an
// ellipsis between, so that ids differing only at one end stay distinct.
func FitMiddle(s string, width int) string {
	s = textsafe.Line(s)
	w := TextWidth(s)
	if w <= width {
		return s
	}
	if width < 3 {
		return ansi.Truncate(s, width, "…")
	}
	tail := (width - 1) / 2
	head := width - 1 - tail
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, w-tail, "")
}

// Affixes are the start and the end that the keys of a column (ids)
// all share, SharedAffixes: cut first when a key does not fit, they
// leave what tells the keys apart.
type Affixes struct{ Prefix, Suffix string }

// SharedAffixes returns the prefix and the suffix that the n keys
// key(0)..key(n-1) share, at separators (a prefix ends after one, a
// suffix starts with one: a number or a word is not split), never
// overlapping in the shortest key; none unless two keys differ.
func SharedAffixes(n int, key func(j int) string) Affixes {
	if n < 2 {
		return Affixes{}
	}
	first := key(0)
	prefix, suffix, shortest, distinct := first, first, len(first), false
	for j := 1; j < n && (prefix != "" || suffix != ""); j++ {
		k := key(j)
		if k == first {
			continue
		}
		distinct = true
		shortest = min(shortest, len(k))
		p := 0
		for p < len(prefix) && p < len(k) && prefix[p] == k[p] {
			p++
		}
		prefix = prefix[:p]
		s := 0
		for s < len(suffix) && s < len(k) && suffix[len(suffix)-1-s] == k[len(k)-1-s] {
			s++
		}
		suffix = suffix[len(suffix)-s:]
	}
	if !distinct {
		return Affixes{}
	}
	prefix = prefix[:strings.LastIndexFunc(prefix, isSeparator)+1]
	suffix = fromSeparator(suffix)
	if len(prefix)+len(suffix) > shortest {
		suffix = fromSeparator(suffix[min(len(prefix)+len(suffix)-shortest, len(suffix)):])
	}
	return Affixes{prefix, suffix}
}

// fromSeparator returns s from its first separator, "" without one.
func fromSeparator(s string) string {
	if i := strings.IndexFunc(s, isSeparator); i >= 0 {
		return s[i:]
	}
	return ""
}

// isSeparator reports whether r separates the words and numbers of an
// id: anything but a letter or a digit (or a rune the byte-wise
// comparison split).
func isSeparator(r rune) bool {
	return r != utf8.RuneError && !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// FitKey returns key, from data, safe to print on one line and cut to
// width cells keeping what tells it apart from the other keys sharing a
// (SharedAffixes): the shared prefix is cut first (its head kept), then
// the shared suffix (its tail kept), so that the middle stays whole when
// it fits: "run-2026…p03-c7-suffix-xyz", "…p03-c7…". A key without the
// affixes, or whose middle alone does not fit, is cut in its middle
// (FitMiddle).
func FitKey(key string, width int, a Affixes) string {
	key = textsafe.Line(key)
	w := TextWidth(key)
	if w <= width {
		return key
	}
	if a == (Affixes{}) || len(key) <= len(a.Prefix)+len(a.Suffix) ||
		!strings.HasPrefix(key, a.Prefix) || !strings.HasSuffix(key, a.Suffix) {
		return FitMiddle(key, width)
	}
	prefix, suffix := TextWidth(a.Prefix), TextWidth(a.Suffix)
	middle := key[len(a.Prefix) : len(key)-len(a.Suffix)]
	room := width - TextWidth(middle)                     // for the affixes, their ellipses counted
	least := func(affix int) int { return min(affix, 1) } // an ellipsis
	if room < least(prefix)+least(suffix) {
		return FitMiddle(key, width)
	}
	keepSuffix := min(suffix, room-least(prefix))
	head := a.Prefix
	if keepPrefix := room - keepSuffix; keepPrefix < prefix {
		head = ansi.Truncate(a.Prefix, keepPrefix-1, "") + "…"
	}
	tail := a.Suffix
	if keepSuffix < suffix {
		tail = "…" + ansi.TruncateLeft(a.Suffix, suffix-(keepSuffix-1), "")
	}
	return head + middle + tail
}

// FitText returns text (a completion on one line, safe to print) cut to
// width cells keeping what tells it apart from the other texts that
// start with prefix (SharedAffixes' Prefix): that start is cut first, its
// end kept next to what differs ("…the answer is \boxed{7}"), then the
// rest at its end. A text without the prefix, or whose prefix leaves a
// third of the width to what follows it, is cut at its end.
//
// A text may be long (OneLine keeps a completion's first maxOneLineBytes):
// it is measured no further than the width decides (widerThan,
// lastCells), as every cell of a group's view is fitted at each frame.
func FitText(text string, width int, prefix string) string {
	if !widerThan(text, width) {
		return text
	}
	if prefix == "" || width < 2 || !strings.HasPrefix(text, prefix) || len(text) == len(prefix) || !widerThan(prefix, 2*width/3) {
		return ansi.Truncate(text, width, "…")
	}
	rest := text[len(prefix):]
	if !widerThan(rest, width-1) { // the prefix's end, after "…"
		return "…" + lastCells(prefix, width-1-TextWidth(rest)) + rest
	}
	return "…" + ansi.Truncate(rest, width-1, "…")
}

// widerThan reports whether s takes more than w cells (TextWidth),
// measuring its first bytes only when they decide: a cell takes a byte
// at least, and rarely more than a few.
func widerThan(s string, w int) bool {
	if len(s) <= w {
		return false
	}
	if limit := 16 * (w + 2); len(s) > limit {
		head := s[:limit]
		for len(head) > 0 && !utf8.RuneStart(s[len(head)]) {
			head = head[:len(head)-1]
		}
		if TextWidth(head) > w {
			return true
		}
	}
	return TextWidth(s) > w
}

// lastCells returns the end of s that takes n cells (ansi.TruncateLeft),
// measuring its last bytes only when they hold n cells.
func lastCells(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if limit := 16 * (n + 1); len(s) > limit {
		tail := s[len(s)-limit:]
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:]
		}
		if w := TextWidth(tail); w > n {
			return ansi.TruncateLeft(tail, w-n, "")
		}
	}
	return ansi.TruncateLeft(s, TextWidth(s)-n, "")
}

// LineBreak stands for the line breaks of a text shown on one line
// (OneLine).
const LineBreak = " ↵ "

// maxOneLineBytes caps what OneLine keeps of a text: far more than a line
// shows, even past a long start that every completion of a group shares.
const maxOneLineBytes = 1 << 16

// OneLine returns text, from data, on one line and safe to print: its
// non-blank lines, each trimmed, joined by LineBreak, cut after
// maxOneLineBytes.
func OneLine(text string) string {
	var b strings.Builder
	for l := range strings.Lines(text) {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(LineBreak)
		}
		b.WriteString(l)
		if b.Len() > maxOneLineBytes {
			break
		}
	}
	return textsafe.Line(b.String())
}

// KeyLine returns key (a group's prompt), from data, on one line and safe
// to print, each of its line breaks shown as LineBreak, as OneLine shows
// a completion's, but nothing trimmed: keys differing in their spaces
// stay distinct.
func KeyLine(key string) string {
	return textsafe.Line(strings.ReplaceAll(key, "\n", LineBreak))
}

// WrapKey returns key (an id), from data, safe to print, in lines of
// width cells, at most maxLines of them: whole when it fits in them, else
// first cut in its middle to what they hold (FitMiddle).
func WrapKey(key string, width, maxLines int) []string {
	width, maxLines = max(width, 1), max(maxLines, 1)
	key = FitMiddle(key, width*maxLines)
	// At its separators when that takes no more lines, else at width.
	if lines := strings.Split(ansi.Wrap(key, width, idBreakpoints), "\n"); len(lines) <= maxLines {
		return lines
	}
	return strings.Split(ansi.Hardwrap(key, width, true), "\n")
}

// idBreakpoints are where WrapKey prefers to break an id.
const idBreakpoints = "-_/.:"

// ReaderStatus is the line over an opened trajectory: its id, then
// status (muted), the id cut in its middle to the width status leaves it
// (half the line at least).
func ReaderStatus(st *Styles, id, status string, width int) string {
	return st.Title.Render(FitMiddle(id, max(width-TextWidth(status), width/2))) + st.Muted.Render(status)
}

// PadRight pads s with spaces to width cells, counting wide characters as
// two, which fmt's %-*s (counting runes) does not.
func PadRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-ansi.StringWidth(s), 0))
}

// Count returns "1 one" or "n many".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// TextWidth returns the cells s takes on screen: its length when it is
// ASCII, as ids nearly always are (ansi.StringWidth is slow on 100k of
// them).
func TextWidth(s string) int {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// MaxIDWidth is the widest a column of trajectory ids is drawn, in cells.
const MaxIDWidth = 28

// MaxIDLines is how many lines a panel's id may wrap over (WrapKey).
const MaxIDLines = 4

// minSharedPrefix is how long the start that every listed group shares
// must be for the group column to leave it out.
const minSharedPrefix = 12

// SharedGroupPrefix returns how many bytes of the group keys cell(0) ..
// cell(n-1) to leave out: the words and lines they all start with, when
// there are some and two groups at least, else 0. Prompts used as groups
// (verl's input, TRL's prompt) share a chat template and a system prompt,
// and a column cut to its first characters would show the same text for
// every group. The cell then starts with "…"; the detail view shows the
// group whole. The keys are raw, not yet escaped (textsafe): an escaped
// line end is no line end.
func SharedGroupPrefix(n int, cell func(j int) string) int {
	if n < 2 {
		return 0
	}
	first := cell(0)
	prefix, distinct, last := first, false, first
	for j := 1; j < n; j++ {
		g := cell(j)
		if g == last { // a group's rows, one after another
			continue
		}
		last = g
		distinct = distinct || g != first
		k := 0
		for k < len(prefix) && k < len(g) && prefix[k] == g[k] {
			k++
		}
		prefix = prefix[:k]
		if len(prefix) < minSharedPrefix || !strings.ContainsAny(prefix, " \n") {
			return 0 // only shrinks: no whole word or line left to cut
		}
	}
	cut := strings.LastIndexAny(prefix, " \n") + 1 // whole words and lines only
	if !distinct || cut < minSharedPrefix {
		return 0
	}
	return cut
}

// SharedGroupSuffix returns how many bytes of the group keys cell(0) ..
// cell(n-1) to leave out at their end, after the first cut bytes
// (SharedGroupPrefix) of each: the end they all share from a separator
// on, after a sentence's punctuation (a chat template's
// "<|im_end|>\n<|im_start|>assistant\n"), when two groups differ and it
// is minSharedPrefix bytes long at least or whole lines (it starts with a
// line break and holds a word: verl's plain template ends in
// "\nassistant\n", shorter), else 0.
func SharedGroupSuffix(n int, cell func(j int) string, cut int) int {
	if n < 2 {
		return 0
	}
	a := SharedAffixes(n, func(j int) string {
		k := cell(j)
		return k[min(cut, len(k)):]
	})
	// The sentence's end stays with it: "7 * 8?", not "7 * 8".
	suffix := strings.TrimLeft(a.Suffix, ".?!,;:")
	lines := strings.HasPrefix(suffix, "\n") && strings.TrimSpace(suffix) != ""
	if len(suffix) < minSharedPrefix && !lines {
		return 0
	}
	return len(suffix)
}

// CutGroupKey returns key without its first cut bytes and its last tail
// bytes (SharedGroupPrefix, SharedGroupSuffix), each cut marked "…"; the
// tail stays when nothing would be left between.
func CutGroupKey(key string, cut, tail int) string {
	if cut+tail >= len(key) {
		tail = 0
	}
	label := key[cut : len(key)-tail]
	if cut > 0 {
		label = "…" + label
	}
	if tail > 0 {
		label += "…"
	}
	return label
}

// computedNames are what the tables and the detail view show beside the
// objectives, of what rewardlens computes or reads for each trajectory.
var computedNames = []string{"id", "group", "batch", "step_count", "done", "read from", "valid", "score", "reward", "rank",
	"pareto_rank", "crowding", "feasible", "violation", "cell", "logged", "response"}

// ObjectiveName returns an objective's name as a column or a row shows
// it, safe to print, marked " (obj)" when it is also the name of what is
// shown beside it (computedNames, a method's rewards): verl's objective
// is its score, open-instruct's its reward.
func ObjectiveName(name string) string {
	if slices.Contains(computedNames, name) || slices.Contains(engine.AllMethods(), engine.Method(name)) {
		return textsafe.Line(name) + " (obj)"
	}
	return textsafe.Line(name)
}
