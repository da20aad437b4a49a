package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// invalidRun is 5 batches of 2 groups of 5 whose objectives a and b rise
// together with spread (healthy), the first invalid[b] trajectories of
// batch b without an a.
func invalidRun(invalid ...int) string {
	var b strings.Builder
	for step, n := range invalid {
		for i := range 10 {
			a := fmt.Sprintf(`"a":%d,`, i%5)
			if i < n {
				a = ""
			}
			fmt.Fprintf(&b, `{"batch":%d,"group":"g%d","step_count":5,"metadata":{%s"b":%g}}`+"\n", step, i/5, a, float64(i%5)+0.1*float64(step))
		}
	}
	return b.String()
}

// invalidModel opens the dashboard on text with objectives a and b.
func invalidModel(t *testing.T, text string, width, height int) *Model {
	t.Helper()
	return openModel(uitest.TextSession(t, text), width, height)
}

// TestBadgeShowsInvalidFraction: the header's health badge counts the
// invalid_fraction check (20% invalid: a WARN, 60%: an ALERT), the Steps
// tab lists it, and the status line warns of the mostly invalid batch.
func TestBadgeShowsInvalidFraction(t *testing.T) {
	header := func(m *Model) string { return strings.TrimRight(strings.Split(screen(m), "\n")[0], " ") }
	if h := header(invalidModel(t, invalidRun(0, 0, 0, 0, 0), 120, 40)); !strings.HasSuffix(h, "✓ healthy") {
		t.Fatalf("the run without invalid trajectories is not healthy: %q", h)
	}
	if h := header(invalidModel(t, invalidRun(0, 0, 2, 0, 0), 120, 40)); !strings.HasSuffix(h, "⚠ 1 check warns") {
		t.Errorf("20%% invalid: header %q, want the badge ⚠ 1 check warns", h)
	}
	for width, badge := range map[int]string{120: "✖ 1 check alerts", 70: "✖1"} {
		m := invalidModel(t, invalidRun(0, 0, 2, 6, 0), width, 40)
		if h := header(m); !strings.HasSuffix(h, badge) {
			t.Errorf("width %d: 60%% invalid: header %q, want the badge %s", width, h, badge)
		}
		selectTabTitled(t, m, "Steps")
		v := screen(m)
		for _, want := range []string{
			"ALERT step 3    invalid_fraction: 6 of 10 trajectories invalid (60%), mostly a: missing (6)",
			"⚠ step 3: 6 of 10 trajectories invalid (60%), mostly a: missing (6)",
		} {
			if width == 120 && !strings.Contains(v, want) {
				t.Errorf("width %d: no %q on the Steps tab:\n%s", width, want, v)
			}
		}
	}
}

// TestAllInvalidIsNeverHealthy: a run none of whose trajectories is valid
// opens (every tab renders), the badge raises an ALERT and the status
// line says why.
func TestAllInvalidIsNeverHealthy(t *testing.T) {
	m := invalidModel(t, invalidRun(10, 10, 10, 10, 10), 140, 40)
	for _, tab := range []string{"1", "2", "3", "4", "5", "6", "7"} {
		press(m, tab)
		v := screen(m)
		lines := strings.Split(v, "\n")
		if h := strings.TrimRight(lines[0], " "); !strings.HasSuffix(h, "✖ 1 check alerts") || strings.Contains(h, "healthy") {
			t.Errorf("tab %s: header %q, want ✖ 1 check alerts", tab, h)
		}
		if !strings.Contains(v, "⚠ all 50 trajectories are invalid: objective a = metadata.a: no trajectory has field a; the first records have b") {
			t.Errorf("tab %s: the status line does not say why:\n%s", tab, v)
		}
	}
}

// TestDashboardObjectiveTypo is issue 12's case on the dashboard: the
// sample with an objective that names no field is not "healthy", and the
// status line says which field was meant.
func TestDashboardObjectiveTypo(t *testing.T) {
	_, res := sampletest.Read(t)
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "acc", Expr: "metadata.acuracy"}}}
	s, err := session.Open("sample", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := openModel(s, 160, 40)
	v := screen(m)
	if h := strings.TrimRight(strings.Split(v, "\n")[0], " "); !strings.HasSuffix(h, "✖ 1 check alerts") {
		t.Errorf("header %q, want ✖ 1 check alerts", h)
	}
	if want := "⚠ all 5120 trajectories are invalid: objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?"; !strings.Contains(v, want) {
		t.Errorf("no %q in:\n%s", want, v)
	}

	// The export refuses as compute does: no file, compute's error as a
	// failure on the status line.
	t.Chdir(t.TempDir())
	press(m, "e")
	if want := "✖ export: all 5120 trajectories are invalid: objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?"; !strings.Contains(screen(m), want) {
		t.Errorf("no %q in:\n%s", want, screen(m))
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("the export wrote %d files, want none", len(entries))
	}
}

// TestDetailSaysWhyTheExpressionFailed: an objective's arithmetic on a
// string makes a trajectory invalid by an evaluation error, which its
// detail explains with the expression's error and the value, each
// trajectory its own (a string, then a bool).
func TestDetailSaysWhyTheExpressionFailed(t *testing.T) {
	text := `{"id":"ok1","group":"g","metadata":{"a":3,"b":1}}
{"id":"ok2","group":"g","metadata":{"a":5,"b":2}}
{"id":"str","group":"g","metadata":{"a":"long","b":1}}
{"id":"yes","group":"g","metadata":{"a":true,"b":1}}
`
	s := uitest.TextSessionWith(t, text, setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a / 10"}, {Name: "b", Expr: "b"}}})
	for id, want := range map[string]string{
		"str": `valid        no: a: evaluation error: invalid operation: string / int (a = "long")`,
		"yes": `valid        no: a: evaluation error: invalid operation: bool / int (a = true)`,
	} {
		m := openModel(s, 120, 40)
		press(m, append([]string{"5", "/"}, append(strings.Split(id, ""), "enter", "enter")...)...)
		if v := screen(m); !strings.Contains(v, want) {
			t.Errorf("%s: the detail does not say %q:\n%s", id, want, v)
		}
	}
}
