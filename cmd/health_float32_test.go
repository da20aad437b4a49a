package cmd

import (
	"strings"
	"testing"
)

// TestHealthVerdictFloat32Note: with no finding, every check run, and
// rows agreeing with the logged advantage only within a coarse float32
// bound (healthReport.Float32Note), the verdict says so, not healthy.
func TestHealthVerdictFloat32Note(t *testing.T) {
	for _, c := range []struct {
		note, want string
	}{
		{"", "findings: none, healthy\n"},
		{"agree only within float32's error", "findings: none; trainer_agreement within float32's error only, which does not tell the settings from slightly wrong ones (the note above)\n"},
	} {
		var out strings.Builder
		if err := writeHealthTable(&out, &healthReport{Float32Note: c.note}, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(out.String(), c.want) {
			t.Errorf("note %q: the verdict is not %q:\n%s", c.note, c.want, out.String())
		}
	}
}
