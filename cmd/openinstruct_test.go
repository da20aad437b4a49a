package cmd

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openInstructDir holds rollout traces written by open-instruct's own
// code (scripts/openinstruct_traces.py: rl_utils.save_rollouts_to_disk
// and the advantage of data_loader.py's _data_preparation_loop, at
// e6c3044aa6201c8bfa4573c1b03142af599e730d), one directory per
// advantage_normalization_type, each with the run's metadata file beside
// two shards of one step each.
var openInstructDir = filepath.Join("testdata", "openinstruct")

// openInstructRow is what the tests read of a RolloutRecord.
type openInstructRow struct {
	Step      int64   `json:"step"`
	PromptIdx int     `json:"prompt_idx"`
	Reward    float64 `json:"reward"`
	Advantage float64 `json:"advantage"`
}

// readOpenInstruct reads the shards of dir, in shard order.
func readOpenInstruct(t *testing.T, dir string) []openInstructRow {
	t.Helper()
	var rows []openInstructRow
	for _, shard := range []string{"000000", "000001"} {
		f, err := os.Open(filepath.Join(dir, "grpo_gsm8k__1__1764150000_rollouts_"+shard+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r openInstructRow
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, r)
		}
		f.Close()
	}
	return rows
}

// TestOpenInstructTraces runs compute --method grpo with no other flag on
// traces of each of open-instruct's advantage normalisations: every
// reward is the advantage open-instruct logged, the metadata file is left
// out with a note, and the groups are the prompts of a step.
func TestOpenInstructTraces(t *testing.T) {
	for mode, settings := range map[string]string{
		"standard": "epsilon 1e-08, population std",
		"centered": "scale none",
	} {
		dir := filepath.Join(openInstructDir, mode)
		recs, errOut := computeList(t, "", "--method", "grpo", dir)
		meta := filepath.Join(dir, "grpo_gsm8k__1__1764150000_metadata.jsonl")
		want := "rewardlens: read as open-instruct rollout traces: group = prompt_idx, batch = step, objective reward, logged advantage = advantage; left out " + meta + " (a run's metadata, not rollouts); method grpo, " + settings + "\n"
		if !strings.Contains(errOut, want) {
			t.Errorf("%s: stderr %q, want %q", mode, errOut, want)
		}
		rows := readOpenInstruct(t, dir)
		if len(recs) != len(rows) || len(rows) != 24 {
			t.Fatalf("%s: %d records, %d rows, want 24", mode, len(recs), len(rows))
		}
		for i, r := range recs {
			w := rows[i]
			if math.Abs(r.Reward-w.Advantage) > 1e-12 || r.Logged == nil || *r.Logged != w.Advantage ||
				r.Batch != w.Step || r.Group != string(rune('0'+w.PromptIdx)) || !r.Valid {
				t.Errorf("%s record %d: reward %.17g logged %v batch %d group %q valid %v, want %.17g, step %d, prompt %d",
					mode, i, r.Reward, r.Logged, r.Batch, r.Group, r.Valid, w.Advantage, w.Step, w.PromptIdx)
			}
		}
	}

	// By hand: step 1's second prompt scored 1.5, 0.25, 3, 0 (rows 4 to
	// 7): mean 1.1875, deviations 0.3125, -0.9375, 1.8125, -1.1875, whose
	// squares sum to 5.671875: population std sqrt(5.671875 / 4).
	d := math.Sqrt(5.671875/4) + 1e-8
	dev := []float64{0.3125, -0.9375, 1.8125, -1.1875}
	standard, _ := computeList(t, "", "--method", "grpo", filepath.Join(openInstructDir, "standard"))
	centered, _ := computeList(t, "", "--method", "grpo", filepath.Join(openInstructDir, "centered"))
	for j, x := range dev {
		if got := standard[4+j].Reward; math.Abs(got-x/d) > 1e-15 {
			t.Errorf("standard row %d: %.17g, want %.17g", 4+j, got, x/d)
		}
		if got := centered[4+j].Reward; got != x {
			t.Errorf("centered row %d: %.17g, want %.17g", 4+j, got, x)
		}
	}

	// Flags override the layout's: the sample std of TRL and verl no
	// longer reproduces the standard advantage (sample std sqrt(5.671875
	// / 3)).
	sample, errOut := computeList(t, "", "--method", "grpo", "--std", "sample", filepath.Join(openInstructDir, "standard"))
	if want := 0.3125 / (math.Sqrt(5.671875/3) + 1e-8); math.Abs(sample[4].Reward-want) > 1e-15 || strings.Contains(errOut, "population std") {
		t.Errorf("--std sample: %.17g, want %.17g; %q", sample[4].Reward, want, errOut)
	}
}

// TestOpenInstructLayoutChoice checks --from open-instruct against other
// layouts, and the note on the metadata file for plain records.
func TestOpenInstructLayoutChoice(t *testing.T) {
	standard := filepath.Join(openInstructDir, "standard")
	shard := filepath.Join(standard, "grpo_gsm8k__1__1764150000_rollouts_000000.jsonl")
	out, errOut, code := run(t, "", "compute", "--from", "open-instruct", verlDir)
	checkBadInput(t, out, errOut, code, filepath.Join(verlDir, "1.jsonl")+": not open-instruct rollout traces (--from open-instruct)")
	out, errOut, code = run(t, "", "compute", "--from", "verl", shard)
	checkBadInput(t, out, errOut, code, shard+": not a verl rollout dump (--from verl)")
	out, errOut, code = run(t, "", "compute", standard, verlDir)
	checkBadInput(t, out, errOut, code, "mixed layouts: "+shard+" is open-instruct rollout traces, ")

	// Read as plain records, the shards have no group and the metadata
	// file is still left out, on a line of its own.
	recs, errOut := computeList(t, "", "--from", "plain", "--objective", "reward=reward", standard)
	meta := filepath.Join(standard, "grpo_gsm8k__1__1764150000_metadata.jsonl")
	if len(recs) != 24 || recs[0].Group != "" || !strings.HasPrefix(errOut, "rewardlens: left out "+meta+" (a run's metadata, not rollouts)\n") {
		t.Errorf("--from plain: %d records, group %q, stderr %q", len(recs), recs[0].Group, errOut)
	}
	// The open-instruct layout with --from, and a flag that overrides
	// what the log told: --scale none on standard traces.
	recs, errOut = computeList(t, "", "--from", "open-instruct", "--method", "grpo", "--scale", "none", standard)
	if recs[4].Reward != 0.3125 || !strings.Contains(errOut, "method grpo, scale none, epsilon 1e-08, population std") {
		t.Errorf("--scale none: %v, %q", recs[4].Reward, errOut)
	}
}

// TestOpenInstructEqualFirstShard: traces of the standard advantage whose
// first shard's groups all score the same cannot tell the normalisation,
// so the layout reads them as centered; the comparison with the log finds
// open-instruct's standard settings (population std, epsilon 1e-8) among
// those it tries, and --match-logged reproduces every row.
func TestOpenInstructEqualFirstShard(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard_equal_first")
	_, errOut := computeList(t, "", "--method", "grpo", dir)
	if want := "`--scale group --epsilon 1e-08 --std population` reproduces it to 0"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	recs, _ := computeList(t, "", "--match-logged", dir)
	for i, r := range recs {
		if r.Logged == nil || math.Abs(r.Reward-*r.Logged) > 1e-12 {
			t.Errorf("record %d: reward %.17g, logged %v", i, r.Reward, r.Logged)
		}
	}
	if len(recs) != 24 {
		t.Errorf("%d records, want 24", len(recs))
	}
}
