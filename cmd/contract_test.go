package cmd

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// contractPath is the contract page, relative to this package.
const contractPath = "../docs/CONTRACT.md"

// workedExample returns the fenced code blocks of the Worked example
// section of docs/CONTRACT.md, in order.
func workedExample(t *testing.T) []string {
	t.Helper()
	page, err := os.ReadFile(contractPath)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n## Worked example\n")
	if !ok {
		t.Fatal("docs/CONTRACT.md has no Worked example section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var blocks []string
	for {
		_, rest, ok := strings.Cut(section, "\n```")
		if !ok {
			return blocks
		}
		_, rest, _ = strings.Cut(rest, "\n") // the fence's language
		block, after, ok := strings.Cut(rest, "\n```")
		if !ok {
			t.Fatal("docs/CONTRACT.md: a code block of the Worked example is not closed")
		}
		blocks = append(blocks, block+"\n")
		section = after
	}
}

// TestContractWorkedExample runs the command of docs/CONTRACT.md's worked
// example on its input and checks that the output is the page's, byte for
// byte, and that the rewards are the ones the page works out by hand.
func TestContractWorkedExample(t *testing.T) {
	blocks := workedExample(t)
	if len(blocks) != 3 {
		t.Fatalf("the Worked example has %d code blocks, want 3 (input, command, output)", len(blocks))
	}
	input, command, want := blocks[0], blocks[1], blocks[2]
	path := filepath.Join(t.TempDir(), "tiny.jsonl")
	if err := os.WriteFile(path, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(command)
	if len(fields) < 4 || strings.Join(fields[:3], " ") != "go run ." || fields[len(fields)-1] != "tiny.jsonl" {
		t.Fatalf("the Worked example's command is not `go run . ... tiny.jsonl`: %q", command)
	}
	args := append(fields[3:len(fields)-1:len(fields)-1], path)
	got, stderr, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, stderr)
	}
	if got != want {
		t.Errorf("the output is not the page's:\n got:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(stderr, "acc: missing ×1") {
		t.Errorf("stderr does not count t5 as invalid (acc: missing): %q", stderr)
	}

	// The page's hand computation: deviations from the mean score -1.5,
	// divided by the sample std sqrt(3.125 / 4) plus 1e-4.
	d := math.Sqrt(3.125/4) + 1e-4
	assertRecordRewards(t, got, map[string]float64{"t0": 0, "t1": 0.75 / d, "t2": 1 / d, "t3": -1 / d, "t4": -0.75 / d, "t5": 0})

	// pareto-crowding: positions 4.5, 3, 4.5, 1.5, 1.5 of 5, so u = 0.875,
	// 0.5, 0.875, 0.125, 0.125, whose z-scores are ±sqrt(5)/2 and 0.
	crowd := append(withoutPair(args, "--method", "grpo"), "--method", "pareto-crowding")
	out, stderr, code := run(t, "", crowd...)
	if code != 0 {
		t.Fatalf("pareto-crowding: status %d: %s", code, stderr)
	}
	h := math.Sqrt(5) / 2
	assertRecordRewards(t, out, map[string]float64{"t0": h, "t1": 0, "t2": h, "t3": -h, "t4": -h, "t5": 0})
	out, _, _ = run(t, "", append(crowd, "--no-normalize")...)
	assertRecordRewards(t, out, map[string]float64{"t0": 0.875, "t1": 0.5, "t2": 0.875, "t3": 0.125, "t4": 0.125, "t5": 0.5})

	// The hypervolume against the default reference (acc 0, len 6) is 3.
	statsArgs := append([]string{"stats", "--health", "--format", "json"}, args[1:]...)
	out, stderr, _ = run(t, "", statsArgs...)
	var report struct {
		Health struct {
			HVRef  []float64 `json:"hv_ref"`
			Trends []struct {
				Hypervolume float64 `json:"hypervolume"`
			} `json:"trends"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("stats --health: %v (stderr %q)", err, stderr)
	}
	if hv := report.Health; len(hv.Trends) != 1 || hv.Trends[0].Hypervolume != 3 || len(hv.HVRef) != 2 || hv.HVRef[0] != 0 || hv.HVRef[1] != 6 {
		t.Errorf("stats --health: reference %v, trends %+v; want reference [0 6] and hypervolume 3", hv.HVRef, hv.Trends)
	}
}

// assertRecordRewards checks the reward of each record of compute's JSONL
// output against want, by ID, to 1e-12.
func assertRecordRewards(t *testing.T, jsonl string, want map[string]float64) {
	t.Helper()
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var rec struct {
			ID     string  `json:"id"`
			Reward float64 `json:"reward"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		w, ok := want[rec.ID]
		if !ok {
			t.Errorf("unexpected record %q", rec.ID)
			continue
		}
		seen++
		if math.Abs(rec.Reward-w) > 1e-12 {
			t.Errorf("%s: reward %v, want %v", rec.ID, rec.Reward, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d records, want %d", seen, len(want))
	}
}

// withoutPair returns args without the adjacent pair flag, value.
func withoutPair(args []string, flag, value string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == flag && i+1 < len(args) && args[i+1] == value {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// contractCitation is a reference to a section of docs/CONTRACT.md in a
// comment or a page: "docs/CONTRACT.md, Methods" or "docs/CONTRACT.md
// (Validity)". A lowercase word after the comma or parenthesis is not a
// section ("docs/CONTRACT.md (absolute, relative...").
var contractCitation = regexp.MustCompile("docs/CONTRACT\\.md(?:, | \\()([A-Z][^,.:;)\"`]*)")

// TestContractCitations checks that every section of docs/CONTRACT.md
// that a Go comment, a page or a script of the repository cites is a
// heading of the page, so that a reader who follows the reference finds it.
func TestContractCitations(t *testing.T) {
	page, err := os.ReadFile(contractPath)
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, line := range strings.Split(string(page), "\n") {
		if name, ok := strings.CutPrefix(line, "## "); ok {
			headings[name] = true
		} else if name, ok := strings.CutPrefix(line, "### "); ok {
			headings[name] = true
		}
	}
	// A comment's lines are joined, so that a citation may wrap.
	continuation := regexp.MustCompile(`\n\s*(?://\s*)?`)
	cited := 0
	err = filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != repoRoot {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".sh":
		default:
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		joined := continuation.ReplaceAllString(string(text), " ")
		for _, m := range contractCitation.FindAllStringSubmatch(joined, -1) {
			cited++
			if !headings[strings.TrimSpace(m[1])] {
				t.Errorf("%s cites %q, which is not a section of docs/CONTRACT.md", path, m[0])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited < 10 {
		t.Errorf("found %d citations of a section of docs/CONTRACT.md; the repository has more", cited)
	}
}

// sourcePath is a path of the repository's code in backquotes on a page:
// "`cmd/contract_test.go`".
var sourcePath = regexp.MustCompile("`([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+\\.(?:go|sh))`")

// TestContractNamesRealFiles checks that every source file README.md and
// docs/CONTRACT.md name (the test that runs the worked example, a
// script) is in the repository, so that a reader who looks for it finds it.
func TestContractNamesRealFiles(t *testing.T) {
	named := 0
	for _, page := range []string{"README.md", "docs/CONTRACT.md"} {
		text, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range sourcePath.FindAllStringSubmatch(string(text), -1) {
			named++
			if _, err := os.Stat(filepath.Join(repoRoot, m[1])); err != nil {
				t.Errorf("%s names %s, which is not in the repository", page, m[1])
			}
		}
	}
	if named == 0 {
		t.Error("README.md and docs/CONTRACT.md name no source file; the worked example names its test")
	}
}
