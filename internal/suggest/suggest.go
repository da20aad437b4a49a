// Package suggest finds the names close to a misspelt one, for the
// messages that say "did you mean ...?".
package suggest

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hbollon/go-edlib"
)

// DidYouMean is "; did you mean NAME?" (names joined by OrList), "" when
// names is empty.
func DidYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "; did you mean " + OrList(names) + "?"
}

// OrList joins names as "a", "a or b", "a, b or c".
func OrList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// maxFieldsListed is how many fields Fields lists.
const maxFieldsListed = 12

// Fields is "; HAVE A, B, C" listing fields, for a message that found no
// name close to the one asked for (have says whose fields: "the records
// have"), the first maxFieldsListed then "and N more"; "" when fields is
// empty.
func Fields(have string, fields []string) string {
	switch {
	case len(fields) == 0:
		return ""
	case len(fields) > maxFieldsListed:
		return fmt.Sprintf("; %s %s and %d more", have, strings.Join(fields[:maxFieldsListed], ", "), len(fields)-maxFieldsListed)
	}
	return "; " + have + " " + strings.Join(fields, ", ")
}

// maxSuggestions is how many names Near returns at most.
const maxSuggestions = 3

// Near returns the names among candidates close to name, nearest first
// (ties in byte order), at most three: those whose optimal string
// alignment distance (Damerau-Levenshtein with adjacent transpositions, on
// runes, case ignored) to name is at most (n+1)/3 for a name of n runes
// (1 for 2 runes, 0 for 1: only another case), and the smallest among the
// candidates. A candidate equal to name is not a suggestion.
func Near(name string, candidates []string) []string {
	n := utf8.RuneCountInString(name)
	limit := (n + 1) / 3
	if n == 2 {
		limit = 1
	}
	lower := strings.ToLower(name)
	best := limit + 1
	var out []string
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := edlib.OSADamerauLevenshteinDistance(lower, strings.ToLower(c))
		switch {
		case d < best:
			best, out = d, append(out[:0], c)
		case d == best && d <= limit && !slices.Contains(out, c):
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), maxSuggestions)]
}

// Parse returns the one of valid whose text is s, or an error that says
// what (a "method", a "scope") s is not, the names close to it and every
// valid one: the parser of the settings that name one of a list.
func Parse[T ~string](what, s string, valid []T) (T, error) {
	names := make([]string, len(valid))
	for i, v := range valid {
		if string(v) == s {
			return v, nil
		}
		names[i] = string(v)
	}
	return "", fmt.Errorf("unknown %s %q%s (valid: %s)", what, s, DidYouMean(Near(s, names)), strings.Join(names, ", "))
}
