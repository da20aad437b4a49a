package ui

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/table"
)

// TestShortenGroups checks that the group column leaves out the words all
// groups start with (a chat template's system prompt), and only those.
func TestShortenGroups(t *testing.T) {
	rows := func(groups ...string) []table.Row {
		out := make([]table.Row, len(groups))
		for i, g := range groups {
			out[i] = table.Row{"id", g}
		}
		return out
	}
	cells := func(rs []table.Row) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r[sortByGroup])
		}
		return out
	}
	for _, c := range []struct {
		groups, want []string
	}{
		{[]string{`system\nYou are a helper.\nuser\nWhat is 7 * 8?`, `system\nYou are a helper.\nuser\nWhat is 12 + 30?`, `system\nYou are a helper.\nuser\nWhat is 7 * 8?`},
			[]string{"…7 * 8?", "…12 + 30?", "…7 * 8?"}},
		{[]string{"p01", "p02"}, []string{"p01", "p02"}}, // nothing long shared
		{[]string{"a long shared prompt x", "a long shared prompt x"}, []string{"a long shared prompt x", "a long shared prompt x"}}, // one group
		{[]string{"a long shared prompt", "a long shared prompt and more"}, []string{"…prompt", "…prompt and more"}},
		{[]string{"only one row with spaces in it"}, []string{"only one row with spaces in it"}},
		{[]string{"é é é é é é é é a", "é é é é é é é é b"}, []string{"…a", "…b"}},
	} {
		rs := rows(c.groups...)
		shortenGroups(rs)
		if got := cells(rs); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.groups, got, c.want)
		}
	}
}
