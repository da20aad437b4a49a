package layouts

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// optionsGrid is every combination of the settings a layout's warnings
// could read: the methods that need no settings of their own, the scope,
// the normalisation and its scale, std and epsilon.
func optionsGrid() []engine.Options {
	var grid []engine.Options
	for _, method := range engine.Methods {
		for _, scope := range []engine.Scope{engine.ScopeGroup, engine.ScopeBatch} {
			for _, normalize := range []bool{true, false} {
				for _, scale := range []engine.Scale{engine.ScaleGroup, engine.ScaleBatch, engine.ScaleNone} {
					for _, std := range []engine.Std{engine.StdSample, engine.StdPopulation} {
						for _, epsilon := range []float64{0, 1e-8} {
							o := engine.DefaultOptions()
							o.Method, o.Scope, o.Normalize, o.Scale, o.Std, o.Epsilon = method, scope, normalize, scale, std, epsilon
							grid = append(grid, o)
						}
					}
				}
			}
		}
	}
	return grid
}

// TestWarningsRead checks each layout's warningsRead against its
// warnings on a run they warn of: results of one evaluation whose options
// it maps to equal ones have the same warnings (the dashboard does not
// ask them again), over every combination of optionsGrid. The runs are
// chosen so that the warnings do change with some options (the scope, the
// normalisation in force), lest the check pass on warnings that read none.
func TestWarningsRead(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name  string
		l     *trainerLayout
		first loaders.FileFields
		ts    []scoring.Trajectory
		// differ is set when some options of the grid give other warnings
		// than others.
		differ bool
	}{
		// A later standard step contradicts the centered normalisation
		// read from the first; a NaN reward's group warns per group.
		{"open-instruct", &openInstructLayout, loaders.FileFields{}, slices.Concat(
			openInstructGroup(1, "0", "reward", false, 0, 10, 0, 10), openInstructGroup(1, "1", "reward", false, 0, 0, 10, 10),
			openInstructGroup(2, "0", "reward", true, 0, 10, 0, 10), openInstructGroup(2, "1", "reward", true, 10, 0, 0, 0),
			openInstructGroup(3, "0", "reward", false, 0, 1, nan, 3)), true},
		{"verl", &verlLayout, loaders.FileFields{Names: []string{"input", "output", "score", "step"}}, slices.Concat(
			openInstructGroup(1, "q", "score", false, 0, 1, nan, 1), openInstructGroup(1, "r", "score", false, 1, 0, 0, 1)), true},
		// Groups of unequal size in step 2.
		{"trl", &trlLayout, loaders.FileFields{}, slices.Concat(
			openInstructGroup(1, "a", "score", false, 0, 1), openInstructGroup(1, "b", "score", false, 1, 0),
			openInstructGroup(2, "a", "score", false, 0, 1, 1, 0), openInstructGroup(2, "b", "score", false, 1, 0)), false},
	} {
		cfg, _, _, err := layoutDefaults(setup.Config{}, c.l, c.first)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(cfg.Objectives) == 0 {
			cfg.Objectives = []setup.ObjectiveConfig{{Name: "score", Expr: "score"}}
		}
		computer, err := engine.New(cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		e := computer.NewEvaluator()
		e.Add(c.ts)
		ev := e.Evaluation()
		warn, read := Warnings(cfg, scoring.Uncapped, nil), WarningsRead(cfg)
		if warn == nil || read == nil {
			t.Fatalf("%s: no warnings (%v) or no warningsRead (%v)", c.name, warn != nil, read != nil)
		}
		byRead := map[string][]string{} // the warnings of the options read, by their %+v
		said := map[string]bool{}       // the warnings given, joined
		for _, o := range optionsGrid() {
			res := ev.Compute(o)
			all := make([]int, len(res.Ranking.Batches))
			for b := range all {
				all[b] = b
			}
			got := warn(res, all)
			if len(got) == 0 {
				t.Errorf("%s under %+v: no warning of a run made to be warned of", c.name, o)
			}
			said[fmt.Sprint(got)] = true
			key := fmt.Sprintf("%+v", read(o))
			if before, ok := byRead[key]; ok && !slices.Equal(before, got) {
				t.Errorf("%s: options read as %s give %q under %+v, %q before", c.name, key, got, o, before)
			}
			byRead[key] = got
		}
		if c.differ != (len(said) > 1) {
			t.Errorf("%s: %d different warnings over the grid: %v", c.name, len(said), said)
		}
	}
}

// TestLayoutNamesAreTrainers: each trainer's layout is named by its
// trainer's identifier (engine.Trainers), by which the trainer agreement
// tries that trainer's settings alone.
func TestLayoutNamesAreTrainers(t *testing.T) {
	for _, l := range trainerLayouts {
		if !slices.Contains(engine.Trainers, engine.Trainer(l.name)) {
			t.Errorf("layout %q is no engine.Trainer", l.name)
		}
	}
}
