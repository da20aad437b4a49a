package csvread

import (
	"bufio"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// TestHeaderNamedColumns: the load's layout (layoutOf) and the columns
// Peek tells (Columns) name a header's columns alike: names trimmed of
// spaces, a column without a name (pandas' index column, a name of
// spaces) left out, the others kept in the header's order at their
// indexes.
func TestHeaderNamedColumns(t *testing.T) {
	for _, c := range []struct {
		header string
		names  []string
		index  []int
	}{
		{"id,group,acc", []string{"id", "group", "acc"}, []int{0, 1, 2}},
		{",id,acc", []string{"id", "acc"}, []int{1, 2}},
		{" id ,\tacc\t, sim", []string{"id", "acc", "sim"}, []int{0, 1, 2}},
		{"id,  ,acc,", []string{"id", "acc"}, []int{0, 2}},
		{`" id ","",acc`, []string{"id", "acc"}, []int{0, 2}},
	} {
		header, err := csv.NewReader(strings.NewReader(c.header)).Read()
		if err != nil {
			t.Fatal(err)
		}
		names, index := namedColumns(header)
		if !slices.Equal(names, c.names) || !slices.Equal(index, c.index) {
			t.Errorf("%q: namedColumns %q at %d, want %q at %d", c.header, names, index, c.names, c.index)
		}
		if columns, _ := Columns(bufio.NewReader(strings.NewReader(c.header + "\n1,2,3,4\n"))); !slices.Equal(columns, c.names) {
			t.Errorf("%q: Columns %q, want %q", c.header, columns, c.names)
		}
		cr := csv.NewReader(strings.NewReader(c.header))
		if _, err := cr.Read(); err != nil {
			t.Fatal(err)
		}
		layout, err := layoutOf(&input.Loader{Name: "t.csv", Loaded: &input.Loaded{}}, header, cr)
		if err != nil {
			t.Fatalf("%q: %v", c.header, err)
		}
		var laid []int // the indexes of the columns the layout reads
		for _, i := range layout.fields {
			if i >= 0 {
				laid = append(laid, i)
			}
		}
		for _, m := range layout.metadata {
			laid = append(laid, m.index)
			if m.name != strings.TrimSpace(header[m.index]) {
				t.Errorf("%q: metadata column %q at %d", c.header, m.name, m.index)
			}
		}
		if slices.Sort(laid); !slices.Equal(laid, c.index) {
			t.Errorf("%q: the layout reads columns %d, want %d", c.header, laid, c.index)
		}
	}
}
