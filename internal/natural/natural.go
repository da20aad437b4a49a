// Package natural is the order of names a person expects: runs of digits
// compare as numbers (step_9 before step_10). The loaders sort a
// directory's files by it, the dashboard its groups and ids.
package natural

import "strings"

// Compare orders names as a person would: runs of digits compare as
// numbers (step_9 before step_10), everything else byte by byte. Names
// whose runs all compare equal ("step_01" and "step_1") are ordered by the
// fewer leading zeros first, then byte by byte, so that the order is total.
func Compare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ra, rb := digitRun(a[i:]), digitRun(b[j:])
			if c := compareNumbers(ra, rb); c != 0 {
				return c
			}
			i, j = i+len(ra), j+len(rb)
			continue
		}
		if a[i] != b[j] {
			return int(a[i]) - int(b[j])
		}
		i, j = i+1, j+1
	}
	if c := (len(a) - i) - (len(b) - j); c != 0 {
		return c // the one that ended first, a prefix of the other
	}
	if c := len(a) - len(b); c != 0 {
		return c // equal but for leading zeros: the shorter first
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitRun returns the run of ASCII digits s starts with.
func digitRun(s string) string {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return s[:n]
}

// compareNumbers compares two runs of digits as numbers, of any length.
func compareNumbers(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
