// Package english holds the small rules of English that messages need.
package english

import "strings"

// Plural returns word for n = 1, else its plural: "ies" for a final "y"
// ("entry", "entries"), else a final "s".
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") {
		return strings.TrimSuffix(word, "y") + "ies"
	}
	return word + "s"
}
