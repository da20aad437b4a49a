package testfile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// VerlSteps writes a verl rollout dump of steps 1-5 into dir
// (1.jsonl-5.jsonl, verl's fields input, output, score, step, acc), 4
// prompts of 4 rows a step, failing tb on an error. Every group mixes
// passing and failing rows, but step 5's rows come each group's two
// passing rows first: with cut, 5.jsonl ends after them in half a line,
// as verl's writer leaves a file mid-write, and every group of step 5
// read all passes while its scores vary (phantom_signal's ALERT).
func VerlSteps(tb testing.TB, dir string, cut bool) {
	tb.Helper()
	row := func(step, prompt int, acc bool, score float64) string {
		b, err := json.Marshal(map[string]any{"input": fmt.Sprintf("Question %d: what is %d + %d?", prompt, prompt, prompt),
			"output": "Answer", "score": score, "step": step, "acc": acc})
		if err != nil {
			tb.Fatal(err)
		}
		return string(b) + "\n"
	}
	for step := 1; step <= 5; step++ {
		var text strings.Builder
		for half := range 2 { // step 5: every group's passing rows first
			for p := range 4 {
				for r := range 4 {
					pass := r < 2
					if step == 5 && pass != (half == 0) || step < 5 && half == 1 {
						continue
					}
					score := 0.1 * float64(r)
					if pass {
						score = 1 + 0.1*float64(r)
					}
					text.WriteString(row(step, p, pass, score))
				}
			}
			if step == 5 && cut && half == 0 {
				text.WriteString(`{"input": "Question 0: wh`)
				break
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.jsonl", step)), []byte(text.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// VerlNaNSteps writes VerlSteps' dump into dir, without a cut line, one
// score of step 3 NaN, failing tb on an error.
func VerlNaNSteps(tb testing.TB, dir string) {
	tb.Helper()
	VerlSteps(tb, dir, false)
	ReplaceFirst(tb, filepath.Join(dir, "3.jsonl"), `"score":1,`, `"score":NaN,`)
}
