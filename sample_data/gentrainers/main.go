// Command gentrainers writes the fixtures of what two trainers write as
// they train, for rewardlens to read unchanged (--from verl, --from trl):
//
//   - sample_data/verl/{1,2,3}.jsonl: verl's rollout dumps
//     (trainer.rollout_data_dir), one file per step, as
//     verl/trainer/ppo/ray_trainer.py writes them in _dump_generations
//     (called by _log_rollout_data): one json.dumps(entry,
//     ensure_ascii=False) line per rollout, keys in the order input (the
//     decoded prompt), output (the decoded response), gts (the
//     reward_model.ground_truth, None when the row has none), score
//     (token_level_scores.sum(-1), a float), step (global_steps), then the
//     reward function's reward_extra_info keys (here a DAPO-style
//     compute_score's acc, a bool, and pred, a string, and a format
//     number). The rows of one prompt are not contiguous (verl's batch
//     balancing reorders them), and step 3 has two prompts of a single
//     rollout, to check verl's convention for a group of one.
//   - sample_data/trl/completions/completions_{00001,00002,00003}.parquet:
//     TRL's completions tables, as trl/trainer/grpo_trainer.py writes them
//     in log() with GRPOTrainer(log_completions=True): a pandas DataFrame
//     written by to_parquet, columns step (int64), prompt and completion
//     (strings), one float64 column per reward function named after it
//     (accuracy_reward, which returns None when the gold answer cannot be
//     parsed, and think_format_reward, both in trl/rewards), null where the
//     function returned None, and advantage (float64): what TRL trained
//     on, computed here as TRL's advantage block does (scale_rewards
//     "group", sum_then_normalize, reward_weights 1), in float32 as TRL
//     does: rewards = nansum(rewards_per_func * weights), a row whose every
//     reward is None left out of its group's nanmean and nanstd (sample
//     std) and given advantage 0, A = (r - mean) / (std + 1e-4). TRL
//     writes a group's rows together; here they are interleaved, which
//     grouping by prompt does not mind. pandas's own key-value metadata
//     (the "pandas" schema note) is not written: readers ignore it.
//
// Regenerate with
//
//	go run ./sample_data/gentrainers    (from the module root)
//
// With -trl-fixtures FILE it writes instead the TRL tables that
// scripts/trl_fixtures.py computed with TRL's own code (cmd/testdata/trl).
//
// The output is deterministic; the test next to this file regenerates it
// into a temporary directory and compares it byte for byte with the
// committed files.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

func main() {
	out := flag.String("out", "sample_data", "directory to write verl/ and trl/ into")
	fixtures := flag.String("trl-fixtures", "", "write the TRL tables of this output of scripts/trl_fixtures.py into -out instead")
	flag.Parse()
	write := write
	if *fixtures != "" {
		write = func(dir string) error { return writeTRLFixtures(*fixtures, dir) }
	}
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gentrainers:", err)
		os.Exit(1)
	}
}

// write writes both fixtures under dir.
func write(dir string) error {
	for step, prompts := range verlSteps {
		path := filepath.Join(dir, "verl", fmt.Sprintf("%d.jsonl", step+1))
		if err := writeFile(path, verlFile(step+1, prompts)); err != nil {
			return err
		}
	}
	for step, prompts := range trlSteps {
		data, err := trlFile(step+1, prompts)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, "trl", "completions", fmt.Sprintf("completions_%05d.parquet", step+1))
		if err := writeFile(path, data); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// verlPrompt is one prompt of a verl step and its rollouts' scores.
type verlPrompt struct {
	question, answer string
	scores           []float64
}

// The verl run: per step, prompts and their rollouts' scores (DAPO's 1.0
// for a correct answer, -1.0 for a wrong one, 0.5 for a correct one past
// the soft length limit).
var verlSteps = [][]verlPrompt{
	{
		{"What is 7 * 8?", "56", []float64{1, -1, 1, 1}},
		{"What is 12 + 30?", "42", []float64{-1, -1, -1, -1}},
		{"What is 81 / 9?", "9", []float64{1, 0.5, -1, 1}},
	},
	{
		{"What is 7 * 8?", "56", []float64{1, 1, 1, -1}},
		{"What is 12 + 30?", "42", []float64{1, -1, 0.5, -1}},
		{"What is 81 / 9?", "9", []float64{1, 1, 1, 1}},
	},
	{
		{"What is 7 * 8?", "56", []float64{1, 1, -1, 1}},
		{"What is 12 + 30?", "42", []float64{1}},
		{"What is 81 / 9?", "9", []float64{-1, 0.5, 1, 1}},
		{"What is 2 ** 10?", "", []float64{-1}}, // no ground truth: gts null
	},
}

// verlChatPrompt is the decoded prompt of a question, as
// tokenizer.batch_decode(prompts, skip_special_tokens=True) gives a Qwen
// chat template's.
func verlChatPrompt(question string) string {
	return "system\nYou are a helpful assistant.\nuser\n" + question +
		" Let's think step by step and output the final answer after \"Answer:\".\nassistant\n"
}

// verlFile returns the rollout dump of step.
func verlFile(step int, prompts []verlPrompt) []byte {
	var buf bytes.Buffer
	for _, r := range interleave(prompts, func(p verlPrompt) int { return len(p.scores) }) {
		p := prompts[r.prompt]
		score := p.scores[r.k]
		correct := score > 0
		pred := p.answer
		if !correct {
			pred = "[INVALID]"
		}
		format := 1
		if score == 0.5 {
			format = 0
		}
		output := fmt.Sprintf("Let me work it out, attempt %d.\nAnswer: %s", r.k+1, pred)
		gts := "null"
		if p.answer != "" {
			gts = pyString(p.answer)
		}
		fmt.Fprintf(&buf, `{"input": %s, "output": %s, "gts": %s, "score": %s, "step": %d, "acc": %t, "pred": %s, "format": %d}`+"\n",
			pyString(verlChatPrompt(p.question)), pyString(output), gts, pyFloat(score), step, correct, pyString(pred), format)
	}
	return buf.Bytes()
}

// row is one row of a step: the k-th rollout of prompt number prompt.
type row struct{ prompt, k int }

// interleave orders the rollouts of prompts round-robin: the first of each
// prompt, then the second of each... so that no prompt's rows follow each
// other.
func interleave[P any](prompts []P, count func(P) int) []row {
	var rows []row
	for k := 0; ; k++ {
		added := false
		for i, p := range prompts {
			if k < count(p) {
				rows = append(rows, row{i, k})
				added = true
			}
		}
		if !added {
			return rows
		}
	}
}

// pyString returns s as Python's json.dumps(s, ensure_ascii=False) does.
func pyString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// pyFloat returns x as Python's repr of a float does for these values.
func pyFloat(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if x == math.Trunc(x) {
		s += ".0"
	}
	return s
}

// trlPrompt is one prompt of a TRL step and its completions' rewards, nil
// where the reward function returned None.
type trlPrompt struct {
	question      string
	accuracy, fmt []*float32
}

func f(x float32) *float32 { return &x }

// The TRL run: 4 generations per prompt; accuracy_reward is None for the
// completions whose gold answer could not be parsed.
var trlSteps = [][]trlPrompt{
	{
		{"Solve x + 3 = 5.", []*float32{f(1), f(0), f(1), f(1)}, []*float32{f(1), f(1), f(0), f(1)}},
		{"Factor x^2 - 1.", []*float32{f(0), f(0), f(0), f(0)}, []*float32{f(1), f(1), f(1), f(1)}},
		{"What is 15% of 80?", []*float32{f(1), nil, f(0), f(1)}, []*float32{f(1), f(1), f(1), f(0)}},
	},
	{
		{"Solve x + 3 = 5.", []*float32{f(1), f(1), f(1), f(1)}, []*float32{f(1), f(0), f(1), f(1)}},
		{"Factor x^2 - 1.", []*float32{f(0), f(1), f(0), f(0)}, []*float32{f(0), f(1), f(1), f(1)}},
		{"What is 15% of 80?", []*float32{nil, nil, f(1), f(0)}, []*float32{f(1), f(0), f(1), f(1)}},
	},
	{
		{"Solve x + 3 = 5.", []*float32{f(1), f(1), f(0), f(1)}, []*float32{f(1), f(1), f(1), f(1)}},
		{"Factor x^2 - 1.", []*float32{nil, f(0), f(1), f(1)}, []*float32{nil, f(1), f(1), f(0)}},
		{"What is 15% of 80?", []*float32{f(0), f(0), f(0), f(1)}, []*float32{f(0), f(1), f(0), f(1)}},
	},
}

// trlRow is a row of TRL's completions table; pointers are nullable
// columns, as pandas writes every column.
type trlRow struct {
	Step              *int64   `parquet:"step,optional"`
	Prompt            *string  `parquet:"prompt,optional"`
	Completion        *string  `parquet:"completion,optional"`
	AccuracyReward    *float64 `parquet:"accuracy_reward,optional"`
	ThinkFormatReward *float64 `parquet:"think_format_reward,optional"`
	Advantage         *float64 `parquet:"advantage,optional"`
}

// trlFile returns the completions table of step.
func trlFile(step int, prompts []trlPrompt) ([]byte, error) {
	var rows []trlRow
	for _, r := range interleave(prompts, func(p trlPrompt) int { return len(p.accuracy) }) {
		p := prompts[r.prompt]
		s := int64(step)
		prompt := "<|im_start|>user\n" + p.question + "<|im_end|>\n<|im_start|>assistant\n"
		completion := fmt.Sprintf("<think>Attempt %d.</think> The answer follows.", r.k+1)
		adv := float64(trlAdvantage(p, r.k))
		rows = append(rows, trlRow{&s, &prompt, &completion, widen(p.accuracy[r.k]), widen(p.fmt[r.k]), &adv})
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[trlRow](&buf)
	if _, err := w.Write(rows); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// widen returns a float32 reward as the float64 that tolist() gives.
func widen(x *float32) *float64 {
	if x == nil {
		return nil
	}
	y := float64(*x)
	return &y
}

// trlAdvantage returns the advantage TRL computes for completion k of p,
// in float32 (see the package comment).
func trlAdvantage(p trlPrompt, k int) float32 {
	rewards := make([]float32, len(p.accuracy))
	scorable := make([]bool, len(p.accuracy))
	for i := range rewards {
		for _, r := range []*float32{p.accuracy[i], p.fmt[i]} {
			if r != nil {
				rewards[i] += *r * 1 // reward_weights: 1
				scorable[i] = true
			}
		}
	}
	if !scorable[k] {
		return 0 // nan_to_num of an unscorable row
	}
	var sum float32
	n := 0
	for i, r := range rewards {
		if scorable[i] {
			sum += r
			n++
		}
	}
	mean := sum / float32(n)
	var sq float32
	for i, r := range rewards {
		if scorable[i] {
			sq += (r - mean) * (r - mean)
		}
	}
	std := float32(math.Sqrt(float64(sq / float32(n) * (float32(n) / float32(n-1)))))
	return (rewards[k] - mean) / (std + 1e-4)
}
