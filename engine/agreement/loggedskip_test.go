package agreement

import (
	"math"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestLoggedNotNumberCut: the warning shows a logged value's first 40
// runes, a string's quoted and escaped, an invalid byte kept as its
// escape; a shorter one whole.
func TestLoggedNotNumberCut(t *testing.T) {
	long := "é\x1b[31m" + strings.Repeat("a", 60)
	for _, c := range []struct {
		value any
		want  string
	}{
		{long, `"é\x1b[31m` + strings.Repeat("a", 34) + `"…`},
		{"\xff" + strings.Repeat("b", 39), `"\xff` + strings.Repeat("b", 39) + `"`},
		{"\xff" + strings.Repeat("b", 40), `"\xff` + strings.Repeat("b", 39) + `"…`},
		{[]any{strings.Repeat("c", 50)}, `["` + strings.Repeat("c", 38) + "…"},
	} {
		ev := &engine.Evaluation{LoggedFaults: engine.LoggedFaults{LoggedNotNumbers: 1, FirstLoggedNotNumber: engine.LoggedValue{Where: "f:1", Value: c.value}}}
		if got := NotNumberWarning(ev); !strings.Contains(got, "(the first: f:1: "+c.want+"): ") {
			t.Errorf("%q: %q, want %s", c.value, got, c.want)
		}
	}
}

// TestLoggedWarningsAfterRewrite: following, a file read again from its
// start replaces its rows (live.Evaluation.Update, then Filter). When it held
// the first row of a kind that others kept share, the warning counts the
// rows kept and those read again and names no first, whose value was not
// kept; it named the first of the rows left out.
func TestLoggedWarningsAfterRewrite(t *testing.T) {
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	row := func(source string, adv any) scoring.Trajectory {
		t := enginetest.Traj(0, "g", "x", 1.0, "adv", adv)
		t.Source = source
		return t
	}
	ts := []scoring.Trajectory{row("a.jsonl", "x"), row("a.jsonl", math.NaN()), row("b.jsonl", "y"), row("b.jsonl", math.Inf(1))}
	e := c.NewEvaluator()
	e.Add(ts)
	l := live.New(c.Scorer, e.Evaluation(), ts)
	ev := l.Evaluation()
	if w := NotNumberWarning(ev); !strings.Contains(w, `2 rows' logged advantage is not a number (the first: `) {
		t.Fatalf("before: %q", w)
	}
	ev = l.Update([]string{"a.jsonl"}, []scoring.Trajectory{row("a.jsonl", "z"), row("a.jsonl", 0.5)})
	for _, c := range []struct{ got, want string }{
		{NotNumberWarning(ev), "2 rows' logged advantage is not a number: read as absent, they are not compared with the rewards"},
		{NonFiniteWarning(ev), "1 row's logged advantage is NaN or infinite: it is not compared with the rewards"},
	} {
		if c.got != c.want {
			t.Errorf("after a.jsonl was read again: %q, want %q", c.got, c.want)
		}
	}
}
