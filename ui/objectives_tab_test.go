package ui

import (
	"strings"
	"testing"
)

// TestObjectivesTableScrollsSideways: at 80 columns the statistics do not
// all fit; the table says so, and right brings max on screen with the
// objective's name still there.
func TestObjectivesTableScrollsSideways(t *testing.T) {
	tab, _ := newSampleTab(t, newObjectivesTab)
	tab.SetSize(80, 24)
	header := func() string { return strings.Split(plain(tab), "\n")[1] }
	if v := plain(tab); strings.Contains(header(), " max") || !strings.Contains(v, "1 column →") {
		t.Fatalf("at 80 columns the table shows max, or does not say a column is off screen:\n%s", v)
	}
	pressKeys(tab, "right")
	if h := header(); !strings.HasPrefix(h, "objective") || !strings.HasSuffix(strings.TrimRight(h, " "), "max") {
		t.Errorf("right does not bring max on screen beside the names: %q", h)
	}
	pressKeys(tab, "left")
	if h := header(); !strings.Contains(h, "goal") {
		t.Errorf("left does not scroll back: %q", h)
	}
}
