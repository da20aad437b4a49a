// Package prompts follows every prompt across a run: its pass rate at each
// step by a task metric, the step it was first solved and its status
// (never, always, learned, forgotten, solved, unsolved, unstable), and
// DAPO's group filter as a what-if (docs/CONTRACT.md, Prompts). The
// command line's prompts and stats and the dashboard read the same
// analysis.
package prompts

import (
	"math"

	"github.com/rewardlens/rewardlens/engine"
)

// SolvedRate is the pass rate at or above which a prompt is solved at a
// step.
const SolvedRate = 0.5

// Keys holds each trajectory's prompt, as an index in Names.
type Keys struct {
	Of    []int32
	Names []string
	index map[string]int32
}

// Add appends the prompt of the next trajectory.
func (k *Keys) Add(key string) {
	if n := len(k.Of); n > 0 && k.Names[k.Of[n-1]] == key {
		k.Of = append(k.Of, k.Of[n-1]) // a group's completions follow each other
		return
	}
	i, ok := k.index[key]
	if !ok {
		if k.index == nil {
			k.index = map[string]int32{}
		}
		i = int32(len(k.Names))
		k.index[key] = i
		k.Names = append(k.Names, key)
	}
	k.Of = append(k.Of, i)
}

// GroupKeys returns the keys that make each trajectory's group its prompt:
// the default of plain records, and of a trainer whose group is its prompt.
func GroupKeys(ev *engine.Evaluation) *Keys {
	if ev.GroupsRuns() {
		// A group value may name several groups (engine's GroupRuns): a
		// prompt is the value.
		k := &Keys{Of: make([]int32, 0, ev.N())}
		for i := range ev.N() {
			k.Add(ev.GroupOf(i))
		}
		return k
	}
	k := &Keys{Of: make([]int32, ev.N()), Names: make([]string, ev.GroupCount())}
	for i := range k.Of {
		k.Of[i] = ev.GroupIndex(i)
	}
	for g := range k.Names {
		k.Names[g] = ev.GroupName(int32(g))
	}
	return k
}

// Point is a prompt at one step: N completions with a task metric, Passed
// of them at or above the pass threshold, and the sum of the valid ones'
// Scored scores.
type Point struct {
	Step      int64
	N, Passed int
	Scored    int
	ScoreSum  float64
}

// PassRate is Passed / N.
func (p Point) PassRate() float64 { return float64(p.Passed) / float64(p.N) }

// ScoreMean is the mean score of the valid completions, NaN when none is.
func (p Point) ScoreMean() float64 {
	if p.Scored == 0 {
		return math.NaN()
	}
	return p.ScoreSum / float64(p.Scored)
}

// Solved reports whether the pass rate is at least SolvedRate.
func (p Point) Solved() bool { return p.PassRate() >= SolvedRate }

// Status is what a prompt's history says of it.
type Status string

// The statuses, in the order Classify tries them: the first that holds is
// the prompt's.
const (
	Never     Status = "never"     // no completion ever passed
	Always    Status = "always"    // every completion at every step passed
	Learned   Status = "learned"   // unsolved at its first step, solved at its last
	Forgotten Status = "forgotten" // solved at some step, unsolved at its last
	Solved    Status = "solved"    // solved at every step
	Unsolved  Status = "unsolved"  // unsolved at every step
	Unstable  Status = "unstable"  // anything else
)

// Statuses lists the statuses in Classify's order.
var Statuses = []Status{Never, Always, Learned, Forgotten, Solved, Unsolved, Unstable}

// Prompt is one prompt across the run.
type Prompt struct {
	Key string
	// History has a point per step at which a completion of the prompt
	// had a task metric, in ascending step order.
	History []Point
	// FirstSolved is the first step at which it is solved; HasSolved is
	// false when there is none.
	FirstSolved int64
	HasSolved   bool
	Status      Status
}

// FirstStep and LastStep are the steps of its first and last points.
func (p *Prompt) FirstStep() int64 { return p.History[0].Step }
func (p *Prompt) LastStep() int64  { return p.History[len(p.History)-1].Step }

// Classify returns the status of a non-empty history: the first of
// Statuses that holds. A prompt seen at one step is never, always, solved
// or unsolved by that step (learned and forgotten need two).
func Classify(history []Point) Status {
	passed, n, solvedSteps := 0, 0, 0
	for _, p := range history {
		passed += p.Passed
		n += p.N
		if p.Solved() {
			solvedSteps++
		}
	}
	first, last := history[0].Solved(), history[len(history)-1].Solved()
	switch {
	case passed == 0:
		return Never
	case passed == n:
		return Always
	case !first && last:
		return Learned
	case solvedSteps > 0 && !last:
		return Forgotten
	case solvedSteps == len(history):
		return Solved
	case solvedSteps == 0:
		return Unsolved
	}
	return Unstable
}

// Analysis is every prompt of a run.
type Analysis struct {
	// Prompts are in order of first appearance.
	Prompts []Prompt
	// WithoutMetric counts the prompts none of whose completions has a
	// task metric, left out of Prompts.
	WithoutMetric int
}

// Analyze follows every prompt of res across its batches: task holds each
// trajectory's task metric (NaN where it is missing: that completion is
// left out of the pass rates), a completion passes when it is >=
// threshold, and keys says which prompt each trajectory answers. It takes
// two passes over the trajectories, the first counting each prompt's
// points, the second filling them in one array: the histories hold one
// point per prompt and step, and the prompts cost a few allocations, not
// one each.
func Analyze(res *engine.Result, task []float64, keys *Keys, threshold float64) Analysis {
	// A new point starts where the prompt's last one is of another step:
	// points[k] counts them, last[k] is the step of the last.
	points := make([]int32, len(keys.Names))
	last := make([]int64, len(keys.Names))
	total := 0
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		for _, i := range b.Members {
			if x := task[i]; math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			if k := keys.Of[i]; points[k] == 0 || last[k] != b.Step {
				points[k]++
				last[k] = b.Step
				total++
			}
		}
	}
	// Prompt k's points are all[start[k]:][:points[k]], in step order;
	// points counts them again as they are filled.
	all := make([]Point, total)
	start := make([]int32, len(keys.Names))
	at := int32(0)
	for k, c := range points {
		start[k], at, points[k] = at, at+c, 0
	}
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		for _, i := range b.Members {
			x := task[i]
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			k := keys.Of[i]
			if points[k] == 0 || all[start[k]+points[k]-1].Step != b.Step {
				all[start[k]+points[k]].Step = b.Step
				points[k]++
			}
			p := &all[start[k]+points[k]-1]
			p.N++
			if x >= threshold {
				p.Passed++
			}
			if res.Evaluation.Valid[i] {
				p.Scored++
				p.ScoreSum += res.Scores[i]
			}
		}
	}
	var a Analysis
	for _, c := range points {
		if c == 0 {
			a.WithoutMetric++
		}
	}
	a.Prompts = make([]Prompt, 0, len(keys.Names)-a.WithoutMetric)
	for k, c := range points {
		if c == 0 {
			continue
		}
		// Its capacity ends where the next prompt's points start.
		h := all[start[k] : start[k]+c : start[k]+c]
		p := Prompt{Key: keys.Names[k], History: h, Status: Classify(h)}
		for _, pt := range h {
			if pt.Solved() {
				p.FirstSolved, p.HasSolved = pt.Step, true
				break
			}
		}
		a.Prompts = append(a.Prompts, p)
	}
	return a
}

// StatusCount is how many prompts have a status.
type StatusCount struct {
	Status Status `json:"status"`
	Count  int    `json:"count"`
}

// Counts returns the number of prompts of each status, in Statuses' order.
func (a *Analysis) Counts() []StatusCount {
	out := make([]StatusCount, len(Statuses))
	for s, st := range Statuses {
		out[s].Status = st
	}
	for _, p := range a.Prompts {
		for s := range out {
			if out[s].Status == p.Status {
				out[s].Count++
				break
			}
		}
	}
	return out
}
