package invalid

import (
	"errors"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestNanSumKeepsAbsentFieldsAnError: with nansum, an objective that
// reads a field no trajectory has (a misspelt name) was a silent 0 in
// every row; it is NoValid's error, naming the field and the close
// names, as without nansum. A field there but null in every record (a
// TRL reward column never logged), or there only in later records, is
// not absent: no error.
func TestNanSumKeepsAbsentFieldsAnError(t *testing.T) {
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "p", "accuracy", 1.0, "fmt", 1.0, "never", nil),
		enginetest.Traj(0, "p", "accuracy", 0.0, "fmt", 0.0, "never", nil),
		enginetest.Traj(0, "p", "accuracy", 1.0, "fmt", 0.5, "never", nil, "late", 1.0),
	}
	fields := scoring.FieldNames(&ts[0])
	compute := func(nanSum bool, objectives ...string) (*engine.Result, scoring.Scorer) {
		t.Helper()
		var objs []setup.ObjectiveConfig
		for _, o := range objectives {
			name, expr, _ := strings.Cut(o, "=")
			objs = append(objs, setup.ObjectiveConfig{Name: name, Expr: expr, Weight: ptr(1.0)})
		}
		c, err := engine.New(setup.Config{Method: "grpo", NanSum: &nanSum, Objectives: objs})
		if err != nil {
			t.Fatal(err)
		}
		return c.Compute(ts, engine.GRPO), c.Scorer
	}
	for _, c := range []struct {
		nanSum     bool
		objectives []string
		want       string // "" for no error
	}{
		{true, []string{"acc=metadata.acuracy", "fmt=fmt"}, "objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy? (nansum would count it 0 in every trajectory)"},
		{true, []string{"acc=acuracy", "f=fmt"}, "objective acc = acuracy: no trajectory has field acuracy; did you mean accuracy?"},
		{true, []string{"acc=accuracy", "n=never"}, ""},
		{true, []string{"acc=accuracy", "l=late"}, ""},
		{false, []string{"acc=accuracy", "fmt=fmt"}, ""},
		{false, []string{"acc=metadata.acuracy"}, "all 3 trajectories are invalid: objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?"},
	} {
		res, s := compute(c.nanSum, c.objectives...)
		err := NoValid(res, s, fields)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("nansum %v, %v: %v; want no error", c.nanSum, c.objectives, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("nansum %v, %v: %v; want %s", c.nanSum, c.objectives, err, c.want)
		}
		var absent *AbsentFieldError
		if c.nanSum && c.want != "" && !errors.As(err, &absent) {
			t.Errorf("nansum %v, %v: %T, want an *AbsentFieldError", c.nanSum, c.objectives, err)
		}
	}
}
