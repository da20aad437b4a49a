// Package english holds the small rules of English that messages need.
package english

import (
	"fmt"
	"strings"
)

// Plural returns word for n = 1, else its plural: "ies" for a final "y"
// ("entry", "entries"), "es" after a final "s", "x", "ch" or "sh"
// ("batch", "batches"), else a final "s".
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") {
		return strings.TrimSuffix(word, "y") + "ies"
	}
	for _, end := range []string{"s", "x", "ch", "sh"} {
		if strings.HasSuffix(word, end) {
			return word + "es"
		}
	}
	return word + "s"
}

// Verb returns singular for n = 1, else plural: the form of a verb whose
// subject is a count of n things ("1 group has", "2 groups have").
func Verb(n int, singular, plural string) string {
	if n == 1 {
		return singular
	}
	return plural
}

// List joins items as a list is written: "a", "a and b", "a, b and c"
// (no comma before the "and", as the messages write their lists).
func List(items []string) string { return Join(items, "and") }

// Join is List with another conjunction: "a, b or c".
func Join(items []string, conjunction string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conjunction + " " + items[len(items)-1]
}

// Percent writes a share (1 is all) as a whole percent, "37%", except
// where that would round a share strictly between 0 and 1 to "0%" or
// "100%", which would read as none or all: there one decimal ("99.6%"),
// and "<0.1%" or ">99.9%" when even that would round to the end.
func Percent(share float64) string {
	whole := fmt.Sprintf("%.0f%%", 100*share)
	if share <= 0 || share >= 1 || (whole != "0%" && whole != "100%") {
		return whole
	}
	switch tenth := fmt.Sprintf("%.1f%%", 100*share); tenth {
	case "0.0%":
		return "<0.1%"
	case "100.0%":
		return ">99.9%"
	default:
		return tenth
	}
}
