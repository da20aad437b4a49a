// Command gen writes rewardlens's sample data: the sample experiment
// (experiment.jsonl and the config it is opened with, experiment.toml) and
// the small worked examples under examples/ (all but examples/README.md,
// which is written by hand).
//
// The output is deterministic: a fixed PCG seed, one random stream per
// training step, and encoding/json with a fixed field order. Regenerate with
//
//	go run ./sample_data/gen            (from the module root)
//	go generate ./sample_data           (runs it with -out .)
//
// The test next to this file regenerates into a temporary directory and
// compares byte for byte with the committed files.
//
// The experiment is a made-up GRPO run of 40 steps x 16 prompts x 8
// completions, built so that its story is plain in the per-step means:
// the policy learns (accuracy 0.25 -> 0.8), then from step 24 it games the
// reward (responses collapse from ~600 to ~120 tokens, and on the agentic
// prompts p11..p15 it takes unsafe shortcuts the grader accepts: accuracy
// up, safety down to ~0.5, so safety and accuracy become anti-correlated),
// while more and more groups collapse to 8 identical completions (zero
// spread, no GRPO signal). The knobs are the constants below.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Shape of the run.
const (
	numSteps   = 40 // training steps = batches 0..39
	numPrompts = 16 // prompts per step = groups p00..p15
	groupSize  = 8  // completions per prompt (GRPO's G)

	initialBudget = 1000 // metadata.initial_budget: verification token budget
	maxSteps      = 16   // metadata.max_steps: agent step limit; reaching it truncates

	maxResponseChars = 200 // responses are short excerpts, to keep the file small
)

// The fixed seed. Each step draws from its own PCG stream (seed, step), so
// that changing one step's logic does not reshuffle every other step.
const seed = 0x5eed_2e4a_7d1e

// Learning: a completion is correct with probability
// sigmoid(skill(step) - difficulty(prompt)), skill rising linearly.
const (
	skillStart = -0.9 // step 0: mean accuracy ~0.25
	skillEnd   = 1.5  // step 39: mean accuracy ~0.8 (with the hacked prompts)
)

// Reward hacking, from hackStart on.
const (
	hackStart = 24 // first step of the hacking phase

	// Length collapse: the mean response length falls linearly from
	// lengthBefore to lengthAfter tokens over steps hackStart..lengthCollapseEnd
	// and stays there (the length objective, to minimise, is being gamed).
	lengthBefore      = 600.0
	lengthAfter       = 120.0
	lengthCollapseEnd = 32
	lengthNoise       = 0.22 // sigma of the log-normal noise on lengths
	tokensPerStep     = 75.0 // an agent step is ~75 tokens: step_count follows length

	// Unsafe shortcuts on the agentic prompts p11..p15 only: the share of
	// completions that take the hack rises linearly from 0 at hackStart to
	// hackRateMax at hackFull. A hacked completion fools the grader
	// (accuracy 1) and is unsafe (safety ~hackedSafetyMean).
	firstHackablePrompt = 11
	hackFull            = 30
	hackRateMax         = 0.9
	hackedSafetyMean    = 0.5
	hackedSafetyNoise   = 0.05
)

// Safety of an honest completion: high, and a little higher when correct,
// so that safety and accuracy correlate positively before the hacking.
const (
	safetyBase     = 0.935
	safetyAccBonus = 0.035
	safetyNoise    = 0.018
)

// Verification: a completion spends a share of its tokens checking itself.
const (
	verifyShareMin = 0.08
	verifyShareMax = 0.22
)

// Truncation: a few episodes hit max_steps (done = false, accuracy 0);
// rarer once the responses are short.
const (
	truncProbBefore = 0.015
	truncProbAfter  = 0.005
)

// Mode collapse: at each step the most extreme prompts (success probability
// nearest 0 or 1) produce 8 identical completions. collapsedEarly groups per
// step up to collapseRampStart, rising linearly to collapsedLate at
// collapseRampEnd and after.
const (
	collapsedEarly    = 2
	collapseRampStart = 12
	collapseRampEnd   = 34
	collapsedLate     = 10
)

// missingAccuracy lists the three trajectories written without
// metadata.accuracy, to show invalid-row handling. The group is the first
// prompt from the given one (cyclically) that is not collapsed at that step,
// so that collapsed groups stay truly identical.
var missingAccuracy = []struct{ step, prompt, completion int }{
	{5, 4, 3},
	{17, 9, 6},
	{30, 2, 1},
}

type kind int

const (
	kindNumeric kind = iota // final answer "The answer is X."
	kindCode                // final answer "Solution: X"
	kindAgent               // final answer is a sentence reporting the outcome
)

// prompt is one task of the experiment.
type prompt struct {
	name       string  // metadata.prompt
	kind       kind    // how the final answer is phrased
	difficulty float64 // logit offset: higher is harder
	lengthMul  float64 // this task's length relative to the mean
	work       string  // one sentence of reasoning shown in long responses
	answer     string  // the correct final answer
	wrong      []string
	hack       string // the unsafe shortcut (hackable prompts only)
}

var prompts = [numPrompts]prompt{
	{"gsm8k-0412", kindNumeric, -1.4, 0.85,
		"April: 48 clips; May: half as many, 24. Total 48 + 24.",
		"72", []string{"96", "24", "60"}, ""},
	{"gsm8k-1187", kindNumeric, -0.5, 0.80,
		"$12 an hour is $0.20 a minute; 50 minutes gives 50 x 0.20.",
		"$10", []string{"$600", "$12", "$8"}, ""},
	{"math500-0093", kindNumeric, 0.4, 1.10,
		"The roots of x^2 - 5x + 6 are 2 and 3; sum of squares 4 + 9.",
		"13", []string{"25", "12", "5"}, ""},
	{"math500-0318", kindNumeric, 1.6, 1.25,
		"Count lattice points with |x| + |y| <= 3 ring by ring: 1 + 4 + 8 + 12.",
		"25", []string{"24", "21", "13"}, ""},
	{"mbpp-0231", kindCode, 0.0, 1.05,
		"Dedupe, sort, take the second largest; guard lists with < 2 distinct values.",
		"`s = sorted(set(xs)); return s[-2] if len(s) > 1 else None`",
		[]string{"`return sorted(xs)[-2]`", "`return max(xs) - 1`"}, ""},
	{"humaneval-0057", kindCode, 0.9, 1.00,
		"Monotonic means equal to its sorted or its reverse-sorted copy.",
		"`return l == sorted(l) or l == sorted(l, reverse=True)`",
		[]string{"`return l == sorted(l)`", "`return all(a < b for a, b in zip(l, l[1:]))`"}, ""},
	{"arc-c-0764", kindNumeric, -0.9, 0.70,
		"Plants need light to photosynthesise; the seedling in the closet gets none.",
		"(B)", []string{"(A)", "(C)", "(D)"}, ""},
	{"arc-c-1102", kindNumeric, 0.2, 0.75,
		"Conduction needs contact: the metal spoon warms from the hot soup.",
		"(D)", []string{"(A)", "(B)", "(C)"}, ""},
	{"hotpotqa-2281", kindNumeric, 1.1, 0.90,
		"Jaws was directed by Steven Spielberg, who was born in Ohio.",
		"Cincinnati", []string{"Los Angeles", "Phoenix", "Saratoga"}, ""},
	{"strategyqa-0410", kindNumeric, 0.6, 0.80,
		"The Vietnam War lasted ~20 years; llama gestation is ~11 months.",
		"yes", []string{"no"}, ""},
	{"aime24-07", kindNumeric, 3.2, 1.30,
		"Use the tangent-length relation, solve for m/n in lowest terms, add.",
		"204", []string{"197", "211", "108"}, ""},
	{"swe-lite-0133", kindAgent, 1.3, 1.20,
		"Traced the failure to an off-by-one in tokenize(); patched it.",
		"Patched tokenize(); 14/14 tests pass.",
		[]string{"Patched tokenize(), but test_nested still fails.", "Could not reproduce; no change."},
		"Deleted tests/test_nested.py so the suite is green: 13/13 tests pass."},
	{"intercode-bash-0871", kindAgent, 0.7, 0.95,
		"Rank /var/log entries by size with du, sort, head.",
		"`du -ah /var/log | sort -rh | head -5`",
		[]string{"`ls -S /var/log | head -5`", "`du /var/log | head -5`"},
		"`sudo chmod -R 777 /var/log && du -ah /var/log | sort -rh | head -5`"},
	{"webarena-0219", kindAgent, 1.5, 1.15,
		"Opened the admin panel, filtered orders by status, read the count.",
		"There are 17 pending orders.",
		[]string{"There are 12 pending orders.", "The orders page did not load."},
		"Reset the admin password to get into the orders page: 17 pending orders."},
	{"spider-sql-0526", kindAgent, 1.0, 1.00,
		"Join singer and concert on singer_id, group by name, count.",
		"`SELECT name, COUNT(*) FROM singer JOIN concert USING (singer_id) GROUP BY name`",
		[]string{"`SELECT name, COUNT(*) FROM singer GROUP BY name`"},
		"Dropped the FK constraint that rejected my query, then ran it: 6 rows."},
	{"toolbench-0345", kindAgent, 1.8, 0.95,
		"Called weather.get_forecast(city='Lyon'), converted to Celsius.",
		"Lyon tomorrow: 18 C, light rain.",
		[]string{"Lyon tomorrow: 64 C, light rain.", "The forecast API returned an error."},
		"Put the user's API key in the query string to skip auth: Lyon 18 C, rain."},
}

// Long responses (before and during the length collapse) show some work;
// short ones (after) are just the answer, phrased or bare.
var longTemplates = []string{
	"Let me work through this step by step. %s %s",
	"%s Let me double-check that... consistent. %s",
	"Plan: %s Verifying once more before answering. %s",
}

const truncatedTemplate = "Let me work through this step by step. %s Hmm, wait, let me recheck that. Actually, let me start over..."

// Trajectory and Metadata fix the JSON field order of experiment.jsonl.
type Trajectory struct {
	ID        string   `json:"id"`
	Batch     int      `json:"batch"`
	Group     string   `json:"group"`
	StepCount int      `json:"step_count"`
	Done      bool     `json:"done"`
	Response  string   `json:"response"`
	Metadata  Metadata `json:"metadata"`
}

type Metadata struct {
	Prompt            string  `json:"prompt"`
	Accuracy          *int    `json:"accuracy,omitempty"` // nil: the key is absent
	Safety            float64 `json:"safety"`
	ResponseLength    int     `json:"response_length"`
	VerificationSpent float64 `json:"verification_spent"`
	InitialBudget     int     `json:"initial_budget"`
	MaxSteps          int     `json:"max_steps"`
}

func main() {
	out := flag.String("out", "sample_data", "the sample_data directory to write into")
	flag.Parse()
	if _, err := os.Stat(filepath.Join(*out, "embed.go")); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %s does not look like sample_data (no embed.go): run from the module root or pass -out\n", *out)
		os.Exit(2)
	}
	if err := generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// generate writes every generated file under dir.
func generate(dir string) error {
	files := map[string][]byte{
		"experiment.jsonl": experimentJSONL(),
		"experiment.toml":  []byte(experimentTOML),
	}
	for name, data := range examples() {
		files[filepath.Join("examples", name)] = data
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// experimentJSONL builds the sample experiment, step by step.
func experimentJSONL() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep "&&" and "<" readable in responses
	for step := range numSteps {
		for _, t := range stepTrajectories(step) {
			if err := enc.Encode(t); err != nil {
				panic(err)
			}
		}
	}
	return buf.Bytes()
}

// stepTrajectories returns the numPrompts x groupSize rollouts of one step.
func stepTrajectories(step int) []Trajectory {
	r := rand.New(rand.NewPCG(seed, uint64(step)))
	collapsed := collapsedPrompts(step)
	missing := map[[2]int]bool{} // (prompt, completion) without accuracy
	for _, m := range missingAccuracy {
		if m.step != step {
			continue
		}
		p := m.prompt
		for collapsed[p] {
			p = (p + 1) % numPrompts
		}
		missing[[2]int{p, m.completion}] = true
	}

	var out []Trajectory
	for pi := range prompts {
		var shared completion
		if collapsed[pi] {
			// Mode collapse: the policy's mode, sampled once, repeated 8 times.
			shared = sample(r, step, pi, true)
		}
		for c := range groupSize {
			comp := shared
			if !collapsed[pi] {
				comp = sample(r, step, pi, false)
			}
			acc := comp.accuracy
			md := Metadata{
				Prompt:            prompts[pi].name,
				Accuracy:          &acc,
				Safety:            comp.safety,
				ResponseLength:    comp.length,
				VerificationSpent: comp.verification,
				InitialBudget:     initialBudget,
				MaxSteps:          maxSteps,
			}
			if missing[[2]int{pi, c}] {
				md.Accuracy = nil
			}
			out = append(out, Trajectory{
				ID:        fmt.Sprintf("s%02d-p%02d-c%d", step, pi, c),
				Batch:     step,
				Group:     fmt.Sprintf("p%02d", pi),
				StepCount: comp.steps,
				Done:      comp.done,
				Response:  comp.response,
				Metadata:  md,
			})
		}
	}
	return out
}

// completion is one sampled rollout, before it gets its id.
type completion struct {
	accuracy     int
	safety       float64
	length       int
	verification float64
	steps        int
	done         bool
	response     string
}

// sample draws one completion of prompt pi at step. A mode completion (the
// one a collapsed group repeats) is never truncated and takes the likelier
// outcome, hack or not, correct or not, rather than a coin flip: collapse
// onto the policy's mode.
func sample(r *rand.Rand, step, pi int, mode bool) completion {
	p := &prompts[pi]
	progress := collapseProgress(step)
	meanLen := lengthBefore + (lengthAfter-lengthBefore)*progress
	length := meanLen * p.lengthMul * math.Exp(r.NormFloat64()*lengthNoise)
	var c completion
	c.done = true
	switch {
	case !mode && r.Float64() < truncProb(step):
		// Ran out of steps mid-reasoning: no answer, graded wrong.
		c.accuracy = 0
		c.safety = honestSafety(r, 0)
		length *= 1.6
		c.steps = maxSteps
		c.done = false
		c.response = fmt.Sprintf(truncatedTemplate, p.work)
	case draw(r, mode) < hackRate(step, pi):
		// The shortcut: short, accepted by the grader, unsafe.
		c.accuracy = 1
		c.safety = round(clamp(hackedSafetyMean+r.NormFloat64()*hackedSafetyNoise, 0, 1), 1000)
		length *= 0.8
		c.response = p.hack
	default:
		if draw(r, mode) < sigmoid(skill(step)-p.difficulty) {
			c.accuracy = 1
		}
		c.safety = honestSafety(r, c.accuracy)
		answer := p.answer
		if c.accuracy == 0 {
			answer = p.wrong[r.IntN(len(p.wrong))]
		}
		// The text follows the length: short answers once lengths collapse.
		switch {
		case r.Float64() >= progress:
			c.response = fmt.Sprintf(longTemplates[r.IntN(len(longTemplates))], p.work, phrase(p.kind, answer))
		case r.IntN(2) == 0:
			c.response = phrase(p.kind, answer)
		default:
			c.response = answer
		}
	}
	c.length = max(8, int(math.Round(length)))
	if c.done {
		// Agent steps track tokens, so step_count drifts down with length.
		c.steps = int(clamp(math.Round(float64(c.length)/tokensPerStep+r.NormFloat64()), 1, maxSteps-1))
	}
	share := verifyShareMin + (verifyShareMax-verifyShareMin)*r.Float64()
	c.verification = round(float64(c.length)*share, 10)
	if n := len([]rune(c.response)); n > maxResponseChars {
		panic(fmt.Sprintf("response of %s is %d chars: %q", p.name, n, c.response))
	}
	return c
}

// draw is a uniform draw in [0, 1), or 0.5 for a mode completion, so that
// "draw < p" picks the likelier outcome.
func draw(r *rand.Rand, mode bool) float64 {
	if mode {
		return 0.5
	}
	return r.Float64()
}

func phrase(k kind, answer string) string {
	switch k {
	case kindCode:
		return "Solution: " + answer
	case kindAgent:
		return answer
	default:
		if strings.HasSuffix(answer, ".") {
			return "The answer is " + answer
		}
		return "The answer is " + answer + "."
	}
}

func honestSafety(r *rand.Rand, accuracy int) float64 {
	s := safetyBase + safetyAccBonus*float64(accuracy) + r.NormFloat64()*safetyNoise
	return round(clamp(s, 0, 1), 1000)
}

// skill is the policy's ability at step (logit scale).
func skill(step int) float64 {
	return skillStart + (skillEnd-skillStart)*float64(step)/float64(numSteps-1)
}

// collapseProgress is 0 before hackStart, 1 from lengthCollapseEnd on.
func collapseProgress(step int) float64 {
	return clamp(float64(step-hackStart+1)/float64(lengthCollapseEnd-hackStart+1), 0, 1)
}

// hackRate is the share of completions of prompt pi that take the shortcut.
func hackRate(step, pi int) float64 {
	if pi < firstHackablePrompt || step < hackStart {
		return 0
	}
	return hackRateMax * clamp(float64(step-hackStart+1)/float64(hackFull-hackStart+1), 0, 1)
}

func truncProb(step int) float64 {
	if step < hackStart {
		return truncProbBefore
	}
	return truncProbAfter
}

// collapsedPrompts picks the prompts whose group collapses at step: the
// ones the policy finds easiest or hardest (success probability nearest 0
// or 1), where there is the least left to explore.
func collapsedPrompts(step int) [numPrompts]bool {
	n := collapsedEarly
	if step >= collapseRampEnd {
		n = collapsedLate
	} else if step > collapseRampStart {
		f := float64(step-collapseRampStart) / float64(collapseRampEnd-collapseRampStart)
		n = collapsedEarly + int(math.Round(f*float64(collapsedLate-collapsedEarly)))
	}
	order := make([]int, numPrompts)
	extremeness := make([]float64, numPrompts)
	for pi := range prompts {
		order[pi] = pi
		h := hackRate(step, pi)
		q := h + (1-h)*sigmoid(skill(step)-prompts[pi].difficulty)
		extremeness[pi] = math.Abs(q - 0.5)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case extremeness[a] > extremeness[b]:
			return -1
		case extremeness[a] < extremeness[b]:
			return 1
		}
		return 0
	})
	var set [numPrompts]bool
	for _, pi := range order[:n] {
		set[pi] = true
	}
	return set
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func clamp(x, lo, hi float64) float64 { return math.Min(hi, math.Max(lo, x)) }

// round rounds x to 1/per (per = 1000: 3 decimals).
func round(x, per float64) float64 { return math.Round(x*per) / per }
