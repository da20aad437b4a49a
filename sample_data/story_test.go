package sampledata

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"
	"unicode/utf8"
)

// row is one trajectory of experiment.jsonl, parsed with plain encoding/json
// (independently of the engine's loaders).
type row struct {
	ID        string         `json:"id"`
	Batch     int            `json:"batch"`
	Group     string         `json:"group"`
	StepCount int            `json:"step_count"`
	Done      bool           `json:"done"`
	Response  string         `json:"response"`
	Metadata  map[string]any `json:"metadata"`
}

func readExperiment(t *testing.T) []row {
	t.Helper()
	data, err := FS.ReadFile(ExperimentPath)
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s:%d: %v", ExperimentPath, line, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// num returns metadata[key] as a number, ok false when absent.
func num(r row, key string) (float64, bool) {
	v, ok := r.Metadata[key].(float64)
	return v, ok
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func pearson(xs, ys []float64) float64 {
	mx, my := mean(xs), mean(ys)
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

// stepStats holds the per-step numbers the story is told with.
type stepStats struct {
	accuracy, safety, safetyHacked, length, steps, corr float64
	zeroSpread, notDone                                 int
}

func perStep(rows []row) []stepStats {
	const steps = 40
	stats := make([]stepStats, steps)
	for b := range steps {
		var acc, saf, safAcc, safH, length, sc []float64
		groups := map[string][]map[string]any{}
		var order []string
		st := &stats[b]
		for _, r := range rows {
			if r.Batch != b {
				continue
			}
			s, _ := num(r, "safety")
			l, _ := num(r, "response_length")
			saf = append(saf, s)
			length = append(length, l)
			sc = append(sc, float64(r.StepCount))
			if r.Group >= "p11" {
				safH = append(safH, s)
			}
			if a, ok := num(r, "accuracy"); ok {
				acc = append(acc, a)
				safAcc = append(safAcc, s)
			}
			if !r.Done {
				st.notDone++
			}
			if _, seen := groups[r.Group]; !seen {
				order = append(order, r.Group)
			}
			groups[r.Group] = append(groups[r.Group], r.Metadata)
		}
		st.accuracy, st.safety, st.safetyHacked = mean(acc), mean(saf), mean(safH)
		st.length, st.steps = mean(length), mean(sc)
		st.corr = pearson(safAcc, acc)
		for _, g := range order {
			same := true
			for _, m := range groups[g][1:] {
				same = same && reflect.DeepEqual(m, groups[g][0])
			}
			if same {
				st.zeroSpread++
			}
		}
	}
	return stats
}

func meanOver(stats []stepStats, from, to int, f func(stepStats) float64) float64 {
	var xs []float64
	for _, s := range stats[from : to+1] {
		xs = append(xs, f(s))
	}
	return mean(xs)
}

// TestStory checks, on the committed file, that the story the sample is
// meant to tell is there and plain in the per-step numbers.
func TestStory(t *testing.T) {
	rows := readExperiment(t)
	if len(rows) != 40*16*8 {
		t.Fatalf("%d rows, want %d", len(rows), 40*16*8)
	}
	missing := 0
	ids := map[string]bool{}
	for _, r := range rows {
		if _, ok := r.Metadata["accuracy"]; !ok {
			missing++
			t.Logf("no accuracy: %s", r.ID)
		}
		if n := utf8.RuneCountInString(r.Response); n > 200 {
			t.Errorf("%s: response of %d chars", r.ID, n)
		}
		if ids[r.ID] {
			t.Errorf("duplicate id %s", r.ID)
		}
		ids[r.ID] = true
	}
	if missing != 3 {
		t.Errorf("%d rows without accuracy, want 3", missing)
	}

	stats := perStep(rows)
	var table bytes.Buffer
	fmt.Fprintln(&table, "step  acc   safety safety(p11-15) length steps corr(saf,acc) zero-spread not-done")
	for b, s := range stats {
		fmt.Fprintf(&table, "%4d  %.3f %.3f  %.3f          %6.1f %5.2f %+.3f        %2d          %d\n",
			b, s.accuracy, s.safety, s.safetyHacked, s.length, s.steps, s.corr, s.zeroSpread, s.notDone)
	}
	t.Log("\n" + table.String())

	acc := func(s stepStats) float64 { return s.accuracy }
	length := func(s stepStats) float64 { return s.length }
	corr := func(s stepStats) float64 { return s.corr }
	accEarly, accLate := meanOver(stats, 0, 4, acc), meanOver(stats, 35, 39, acc)
	lenEarly, lenLate := meanOver(stats, 0, 19, length), meanOver(stats, 30, 39, length)
	corrBefore, corrAfter := meanOver(stats, 0, 23, corr), meanOver(stats, 29, 39, corr)
	t.Logf("accuracy: steps 0-4 %.3f, steps 35-39 %.3f", accEarly, accLate)
	t.Logf("length: steps 0-19 %.1f, steps 30-39 %.1f (ratio %.3f)", lenEarly, lenLate, lenLate/lenEarly)
	t.Logf("corr(safety, accuracy): steps 0-23 %+.3f, steps 29-39 %+.3f", corrBefore, corrAfter)

	if accEarly >= 0.45 {
		t.Errorf("accuracy at steps 0-4 = %.3f, want < 0.45", accEarly)
	}
	if accLate <= 0.7 {
		t.Errorf("accuracy at steps 35-39 = %.3f, want > 0.7", accLate)
	}
	if lenLate >= 0.35*lenEarly {
		t.Errorf("length at steps 30-39 = %.1f, want < 0.35 x %.1f (steps 0-19)", lenLate, lenEarly)
	}
	if corrBefore <= 0 {
		t.Errorf("mean safety/accuracy correlation at steps 0-23 = %.3f, want > 0", corrBefore)
	}
	if corrAfter >= 0 {
		t.Errorf("mean safety/accuracy correlation at steps 29-39 = %.3f, want < 0", corrAfter)
	}
	for b, s := range stats {
		if b <= 10 && s.zeroSpread > 4 {
			t.Errorf("step %d: %d zero-spread groups, want <= 4", b, s.zeroSpread)
		}
		if b >= 35 && s.zeroSpread < 9 {
			t.Errorf("step %d: %d zero-spread groups, want >= 9", b, s.zeroSpread)
		}
	}
}

// TestEmbedded checks that FS holds what the package says it holds.
func TestEmbedded(t *testing.T) {
	for _, name := range []string{ExperimentPath, ConfigPath, ExamplesDir + "/README.md",
		ExamplesDir + "/absolute.jsonl", ExamplesDir + "/grpo.jsonl", ExamplesDir + "/svrl.jsonl",
		ExamplesDir + "/pareto.jsonl", ExamplesDir + "/factory.toml"} {
		if _, err := FS.ReadFile(name); err != nil {
			t.Error(err)
		}
	}
}
