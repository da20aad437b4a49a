package cmd

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// writeFiles writes each name's text into a new temporary directory and
// returns the directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestEveryBadInput runs compute and stats on each bad input of the
// hardening issue: each must fail with exit status 2, nothing on stdout,
// and one line on stderr naming the file and line (and the column where
// the format has one) or the setting at fault. A panic fails the test.
func TestEveryBadInput(t *testing.T) {
	good := `{"metadata":{"accuracy":1}}` + "\n"
	dir := writeFiles(t, map[string]string{
		"good.jsonl":      good,
		"malformed.jsonl": good + `{"metadata":{"accuracy":1},}` + "\n",
		"malformed.json":  "[" + strings.TrimSpace(good) + ",\n {\"metadata\": {\"accuracy\": 1,}}]\n",
		"truncated.jsonl": good + `{"metadata":{"accu`,
		"truncated.json":  "[" + strings.TrimSpace(good) + ",\n{\"metadata\":",
		"ragged.csv":      "id,accuracy\na,1\nb,2,3\n",
		"short.csv":       "id,accuracy\na,1\nb\n",
		"noheader.csv":    "1,0.5,3\n2,0.7,4\n",
		"png.jsonl":       "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"garbage.csv":     strings.Repeat("\x80\x9f\xfe\xc3(", 40),
		"garbage.json":    "[\x00\x01\x02]",
		"empty.jsonl":     "",
		"empty.json":      "",
		"empty.csv":       "",
		"type.jsonl":      `{"step_count":"ten"}` + "\n",
		"type.json":       "[\n {\"id\": \"a\", \"step_count\": \"ten\"}\n]\n",
		"type.csv":        "id,step_count\na,ten\n",
		"metatype.jsonl":  `{"metadata":{"accuracy":[1]}}` + "\n",
		"noobj.jsonl":     `{"metadata":{"note":"x"}}` + "\n" + `{"metadata":{"accuracy":1}}` + "\n",
		"unknown.toml":    "methd = \"grpo\"\n",
		"nested.toml":     "[[objective]]\nname = \"a\"\nexpr = \"metadata.accuracy\"\nwieght = 2\n",
		"badexpr.toml":    "[[objective]]\nname = \"a\"\nexpr = \"metadata.accuracy +* 2\"\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	if err := os.Mkdir(p("notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p("notes"), "readme.txt"), []byte("not data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"malformed JSONL", []string{p("malformed.jsonl")}, p("malformed.jsonl") + ":2:28: invalid JSON: invalid character '}' looking for beginning of object key string"},
		{"malformed JSON", []string{p("malformed.json")}, p("malformed.json") + ":2:30: invalid JSON: invalid character '}'"},
		{"truncated last line", []string{p("truncated.jsonl")}, p("truncated.jsonl") + ":2:18: invalid JSON: unexpected end of JSON input"},
		{"truncated JSON array", []string{p("truncated.json")}, p("truncated.json") + ":2:13: invalid JSON: unexpected end of input"},
		{"ragged CSV row, too long", []string{p("ragged.csv")}, p("ragged.csv") + ":3:5: row has 3 fields, header has 2"},
		{"ragged CSV row, too short", []string{p("short.csv")}, p("short.csv") + ":3: row has 1 field, header has 2"},
		{"CSV without a header", []string{p("noheader.csv")}, p("noheader.csv") + ":1:1: no header row: the first row holds numbers (1, 0.5, 3)"},
		{"binary garbage as JSONL", []string{p("png.jsonl")}, p("png.jsonl") + ":3:1: binary data (byte 0x00), not JSON, JSONL or CSV text"},
		{"binary garbage as CSV", []string{p("garbage.csv")}, p("garbage.csv") + ":1:1: binary data (byte 0x80)"},
		{"binary garbage as JSON", []string{p("garbage.json")}, p("garbage.json") + ":1:2: binary data (byte 0x00)"},
		{"binary garbage on stdin", []string{"-"}, "<stdin>:1:1: binary data (byte 0x00)"},
		{"empty JSONL", []string{p("empty.jsonl")}, "no trajectories in " + p("empty.jsonl")},
		{"empty JSON", []string{p("empty.json")}, "no trajectories in " + p("empty.json")},
		{"empty CSV", []string{p("empty.csv")}, "no trajectories in " + p("empty.csv")},
		{"no such file", []string{p("nope.jsonl")}, p("nope.jsonl") + ": no such file or directory"},
		{"directory without inputs", []string{p("notes")}, p("notes") + ": no input files in the directory"},
		{"wrong type, JSONL", []string{p("type.jsonl")}, p("type.jsonl") + `:1:15: step_count: must be an integer, found "ten"`},
		{"wrong type, JSON", []string{p("type.json")}, p("type.json") + `:2:28: step_count: must be an integer, found "ten"`},
		{"wrong type, CSV", []string{p("type.csv")}, p("type.csv") + `:2:3: step_count: must be an integer, found "ten"`},
		{"wrong metadata type", []string{p("metatype.jsonl")}, p("metatype.jsonl") + ":1:25: metadata.accuracy: must be a number, string, bool or null, found an array"},
		{"no objective to infer", []string{p("noobj.jsonl")}, p("noobj.jsonl") + `:1: no objective to score: without --objective (or a config's objectives), each metadata value of the first record that is a number is one, and its metadata ("note"): none is a number`},
		{"unknown method", []string{"--method", "best", p("good.jsonl")}, `unknown method "best" (valid: ` + names(engine.AllMethods()) + `)`},
		{"unknown computer", []string{"--computer", "magic", p("good.jsonl")}, `unknown computer "magic" (valid: pareto, svrl)`},
		{"constraint not boolean", []string{"--constraint", "accuracy + 1", p("good.jsonl")}, `constraint "accuracy + 1" is not a boolean`},
		{"gate of no objective", []string{"--gate", "acuracy: true", p("good.jsonl")}, `gate "acuracy: true": no objective "acuracy"; did you mean accuracy?`},
		{"lexicographic without priority", []string{"--method", "lexicographic", p("good.jsonl")}, "method lexicographic needs --priority"},
		{"priority of no objective", []string{"--method", "lexicographic", "--priority", "acuracy", p("good.jsonl")}, `priority: no objective "acuracy"; did you mean accuracy?`},
		{"unknown objective normalisation", []string{"--normalize-objectives", "quantile", p("good.jsonl")}, `unknown objective normalisation "quantile" (valid: none, minmax, zscore, rank)`},
		{"unknown scope", []string{"--scope", "world", p("good.jsonl")}, `unknown scope "world" (valid: group, batch)`},
		{"unknown scale", []string{"--scale", "huge", p("good.jsonl")}, `unknown scale "huge" (valid: group, batch, none)`},
		{"expression does not compile", []string{"--objective", "a=metadata.accuracy +* 2", p("good.jsonl")},
			`expression a = "metadata.accuracy +* 2": line 1, column 20: unexpected token Operator("*")`},
		{"expression in a config does not compile", []string{"--config", p("badexpr.toml"), p("good.jsonl")},
			p("badexpr.toml") + `:3:28: expression a = "metadata.accuracy +* 2": unexpected token Operator("*")`},
		{"expression of an unknown type", []string{"--objective", "a=response * 2", p("good.jsonl")}, `expression a = "response * 2": line 1, column 10`},
		{"weight of no objective", []string{"--objective", "a=metadata.accuracy", "--weight", "b=1", p("good.jsonl")}, `weight: unknown objective "b" (objectives: a)`},
		{"weight of no inferred objective", []string{"--weight", "b=1", p("good.jsonl")}, `weight: unknown objective "b" (objectives: accuracy)`},
		{"config with an unknown key", []string{"--config", p("unknown.toml"), p("good.jsonl")}, p("unknown.toml") + ":1: unknown key methd; did you mean method? (valid: computer, method"},
		{"config with an unknown objective key", []string{"--config", p("nested.toml"), p("good.jsonl")}, p("nested.toml") + ":4: unknown key objective.wieght; did you mean objective.weight?"},
		{"missing config", []string{"--config", p("nope.toml"), p("good.jsonl")}, "config " + p("nope.toml") + ": no such file"},
		{"config directory", []string{"--config", dir, p("good.jsonl")}, "config " + dir + ": a directory, not a file"},
	}
	if runtime.GOOS == "linux" {
		// Reading a process's memory at offset 0 fails even for root: a
		// file that opens but cannot be read.
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"unreadable file", []string{"/proc/self/mem"}, "/proc/self/mem:1: read: read /proc/self/mem: input/output error"})
	}
	for _, c := range cases {
		for _, command := range []string{"compute", "stats"} {
			t.Run(command+"/"+c.name, func(t *testing.T) {
				stdin := "\x00\x01binary"
				out, errOut, code := run(t, stdin, append([]string{command}, c.args...)...)
				checkBadInput(t, out, errOut, code, c.want)
			})
		}
	}
}

// checkBadInput checks the outcome of a run on bad input: status 2, no
// output, and the message want on the one line of stderr.
// withoutInferredNote is stderr without the line that says the
// objectives inferred (TestInferredObjectivesSaid checks it).
func withoutInferredNote(stderr string) string {
	var kept strings.Builder
	for line := range strings.Lines(stderr) {
		if !strings.HasPrefix(line, "rewardlens: objectives inferred from the first record: ") {
			kept.WriteString(line)
		}
	}
	return kept.String()
}

func checkBadInput(t *testing.T, out, errOut string, code int, want string) {
	t.Helper()
	errOut = withoutInferredNote(errOut)
	if code != exitBadInput {
		t.Errorf("status %d, want 2 (stderr %q)", code, errOut)
	}
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr\n%q\ndoes not contain\n%q", errOut, want)
	}
	if !strings.HasPrefix(errOut, "rewardlens: ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr is not one rewardlens: line: %q", errOut)
	}
	if out != "" {
		t.Errorf("stdout %q, want nothing", out)
	}
}

// TestUnreadableFile reads a file whose permissions forbid it. Root reads
// anyway, so the test only runs for other users.
func TestUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their permissions")
	}
	dir := writeFiles(t, map[string]string{"secret.jsonl": `{"metadata":{"accuracy":1}}` + "\n"})
	path := filepath.Join(dir, "secret.jsonl")
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "compute", path)
	checkBadInput(t, out, errOut, code, path+": permission denied")
}

// computeList runs compute with args and returns its records in order.
func computeList(t *testing.T, stdin string, args ...string) ([]record, string) {
	t.Helper()
	out, errOut, code := run(t, stdin, append([]string{"compute"}, args...)...)
	if code != 0 {
		t.Fatalf("compute %v: status %d, stderr %s", args, code, errOut)
	}
	var recs []record
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %.200q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return recs, errOut
}

// TestLargeResponses reads 8 MiB responses, in JSONL and in CSV: each
// trajectory is read whole and computed.
func TestLargeResponses(t *testing.T) {
	big := strings.Repeat("é🚀 the answer is 42. ", 8<<20/len("é🚀 the answer is 42. ")+1)
	line := func(id string, acc float64) string {
		b, _ := json.Marshal(map[string]any{"id": id, "response": big, "metadata": map[string]any{"accuracy": acc}})
		return string(b) + "\n"
	}
	dir := writeFiles(t, map[string]string{
		"big.jsonl": line("a", 1) + line("b", 0) + line("c", 0.5),
		"big.csv":   "id,accuracy,response\na,1," + big + "\nb,0,\"" + big + "\"\nc,0.5,x\n",
	})
	for _, name := range []string{"big.jsonl", "big.csv"} {
		recs, _ := computeList(t, "", "--method", "absolute", "--no-normalize", filepath.Join(dir, name))
		if len(recs) != 3 || recs[0].ID != "a" || recs[0].Reward != 1 || recs[1].Reward != 0 || recs[2].Reward != 0.5 {
			t.Errorf("%s: records %+v", name, recs)
		}
	}
}

// TestUnicodeIDs keeps ids and groups in any script, and emoji, as they
// are, in JSONL and CSV output.
func TestUnicodeIDs(t *testing.T) {
	in := `{"id":"réponse-🚀","group":"グループ","metadata":{"accuracy":1}}
{"id":"答え","group":"グループ","metadata":{"accuracy":0}}
{"id":"👩‍👩‍👧","group":"🎲","metadata":{"accuracy":0.5}}
`
	recs, _ := computeList(t, in, "--method", "grpo", "-")
	want := []struct{ id, group string }{{"réponse-🚀", "グループ"}, {"答え", "グループ"}, {"👩‍👩‍👧", "🎲"}}
	for i, w := range want {
		if recs[i].ID != w.id || recs[i].Group != w.group {
			t.Errorf("record %d: id %q group %q, want %q %q", i, recs[i].ID, recs[i].Group, w.id, w.group)
		}
	}
	if recs[0].Reward <= 0 || recs[1].Reward >= 0 || recs[2].Reward != 0 {
		t.Errorf("grpo rewards %v %v %v: want +, - and 0 (a group of one)", recs[0].Reward, recs[1].Reward, recs[2].Reward)
	}
	out, _, _ := run(t, in, "compute", "--format", "csv", "-")
	if !strings.Contains(out, "\nréponse-🚀,0,グループ,") || !strings.Contains(out, "\n👩‍👩‍👧,0,🎲,") {
		t.Errorf("CSV output does not keep the ids:\n%s", out)
	}
}

// TestDuplicateIDsWarned computes every trajectory of a file that repeats
// ids, and warns on stderr, for compute and stats alike.
func TestDuplicateIDsWarned(t *testing.T) {
	in := `{"id":"a","group":"g","metadata":{"accuracy":1}}
{"id":"b","group":"g","metadata":{"accuracy":0}}
{"id":"a","group":"g","metadata":{"accuracy":0.5}}
{"id":"a","group":"g","metadata":{"accuracy":0.25}}
`
	recs, errOut := computeList(t, in, "--method", "absolute", "--no-normalize", "-")
	if len(recs) != 4 || recs[2].ID != "a" || recs[2].Reward != 0.5 || recs[3].Reward != 0.25 {
		t.Errorf("records %+v", recs)
	}
	want := `rewardlens: warning: 2 trajectories repeat an earlier one's ID ("a"); each is computed and written, in input order` + "\n"
	if errOut = withoutInferredNote(errOut); errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	_, errOut, code := run(t, in, "stats", "-")
	if code != 0 || !strings.Contains(errOut, "2 trajectories repeat an earlier one's ID") {
		t.Errorf("stats: status %d, stderr %q", code, errOut)
	}
	// An ID may be a whole prompt: named cut to its first runes.
	long := strings.Repeat("p", 5000)
	_, errOut, _ = run(t, fmt.Sprintf(`{"id":%q}`+"\n"+`{"id":%q}`+"\n", long, long), "compute", "--objective", "a=1", "-")
	if want := `1 trajectory repeats an earlier one's ID ("` + strings.Repeat("p", textsafe.ShortRunes) + `"…)`; !strings.Contains(errOut, want) {
		t.Errorf("a long ID: stderr %q, want %q in it", errOut, want)
	}
	_, errOut, _ = run(t, `{"id":"x","group":"g"}`+"\n"+`{"id":"y","group":"g"}`+"\n", "compute", "--objective", "a=1", "-")
	if errOut != "" {
		t.Errorf("unique ids: stderr %q", errOut)
	}
}

// TestBatchAndGroupOfOne computes every method on a batch of one
// trajectory, and on a batch where one group has one: docs/CONTRACT.md gives each a
// defined, finite reward.
func TestBatchAndGroupOfOne(t *testing.T) {
	one := `{"id":"solo","metadata":{"accuracy":0.8}}` + "\n"
	// Normalised: every method's reward of a lone trajectory is 0.
	// Not normalised: absolute is the score, relative and pareto-crowding
	// 0.5, pareto 1, the others 0.
	raw := map[string]float64{"absolute": 0.8, "relative": 0.5, "grpo": 0, "rloo": 0, "pareto": 1, "pareto-crowding": 0.5, "gdpo": 0}
	for method, want := range raw {
		recs, _ := computeList(t, one, "--method", method, "-")
		if len(recs) != 1 || recs[0].Reward != 0 || recs[0].ParetoRank != 0 || recs[0].Crowding != "inf" {
			t.Errorf("%s, batch of one: %+v, want reward 0, rank 0, crowding inf", method, recs)
		}
		recs, _ = computeList(t, one, "--method", method, "--no-normalize", "-")
		if math.Abs(recs[0].Reward-want) > 1e-12 {
			t.Errorf("%s --no-normalize, batch of one: reward %v, want %v", method, recs[0].Reward, want)
		}
	}
	groups := `{"id":"a","group":"g","metadata":{"accuracy":1}}
{"id":"b","group":"g","metadata":{"accuracy":0}}
{"id":"c","group":"g","metadata":{"accuracy":0.5}}
{"id":"solo","group":"h","metadata":{"accuracy":0.8}}
`
	for method := range raw {
		recs, _ := computeList(t, groups, "--method", method, "-")
		solo := recs[3]
		if method != "gdpo" && solo.Reward != 0 {
			t.Errorf("%s: the group of one has reward %v, want 0", method, solo.Reward)
		}
		if method == "gdpo" && (math.IsNaN(solo.Reward) || solo.ParetoRank != 0) {
			t.Errorf("gdpo: the group of one: %+v", solo)
		}
	}
}

// TestEveryTrajectoryInvalid computes a file where no trajectory has the
// objective: nothing is written, the status is 2 and the error says why,
// whatever the method and the output.
func TestEveryTrajectoryInvalid(t *testing.T) {
	in := `{"id":"a","group":"g","metadata":{"other":1}}
{"id":"b","group":"g","metadata":{"accuracy":"high"}}
{"id":"c","group":"h","metadata":{"accuracy":null}}
`
	const want = "rewardlens: all 3 trajectories are invalid: objective acc = metadata.accuracy: absent or null in 2 trajectories, not a number (a string, a list or a map) in 1 trajectory (the first: the string \"high\")\n"
	var runs [][]string
	for _, method := range []string{"absolute", "grpo", "pareto", "gdpo"} {
		runs = append(runs, []string{"compute", "--method", method})
	}
	for _, format := range []string{"table", "json"} {
		runs = append(runs, []string{"stats", "--format", format}, []string{"stats", "--health", "--format", format})
	}
	for _, args := range runs {
		out, errOut, code := run(t, in, append(args, "--objective", "acc=metadata.accuracy", "-")...)
		if code != exitBadInput || out != "" || errOut != want {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2, nothing, %q", args, code, out, errOut, want)
		}
	}
}

// TestCSVNonFiniteAndQuotedNumbers reads NaN and infinities in CSV cells
// (invalid trajectories, counted per cause) and numbers written as quoted
// strings (numbers all the same).
func TestCSVNonFiniteAndQuotedNumbers(t *testing.T) {
	in := "id,accuracy,safety\na,nan,1\nb,inf,1\nc,-Infinity,1\nd,\"0.5\",\" 1 \"\ne,1,\"2e-1\"\n"
	recs, errOut := computeList(t, in, "--input-format", "csv", "--method", "absolute", "--no-normalize", "-")
	for i, want := range []bool{false, false, false, true, true} {
		if recs[i].Valid != want {
			t.Errorf("%s: valid %v, want %v", recs[i].ID, recs[i].Valid, want)
		}
	}
	if acc := recs[3].Objectives["accuracy"]; acc == nil || *acc != 0.5 {
		t.Errorf("the quoted \"0.5\" reads as %v, want 0.5", acc)
	}
	if s := recs[4].Objectives["safety"]; s == nil || *s != 0.2 {
		t.Errorf("the quoted \"2e-1\" reads as %v, want 0.2", s)
	}
	if !strings.Contains(errOut, "accuracy: infinite ×2") || !strings.Contains(errOut, "accuracy: NaN ×1") {
		t.Errorf("stderr %q does not count the causes", errOut)
	}
}

// TestManyGroupsOfOne computes 10,000 groups of one trajectory: every
// group-relative reward is 0, and every group has zero spread.
func TestManyGroupsOfOne(t *testing.T) {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, `{"id":"t%d","group":"p%d","metadata":{"accuracy":%g}}`+"\n", i, i, float64(i%7)/7)
	}
	recs, _ := computeList(t, b.String(), "--method", "grpo", "-")
	if len(recs) != 10000 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		if r.Reward != 0 || r.ParetoRank != 0 {
			t.Fatalf("%+v: want reward 0, rank 0", r)
		}
	}
	out, errOut, code := run(t, b.String(), "stats", "--format", "json", "-")
	var report struct {
		Batches []struct {
			Groups            int     `json:"groups"`
			FracZeroStdGroups float64 `json:"frac_zero_std_groups"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &report); code != 0 || err != nil {
		t.Fatalf("stats: status %d, %v, stderr %s", code, err, errOut)
	}
	if b := report.Batches[0]; b.Groups != 10000 || b.FracZeroStdGroups != 1 {
		t.Errorf("stats: %d groups, frac_zero_std_groups %v; want 10000 and 1", b.Groups, b.FracZeroStdGroups)
	}
}

// TestMaxRows caps compute at 10 trajectories of the sample: 10 records
// out and a warning that says the rest was not read and the cap cut the
// sample's second group (of 8 rows); a line skipped before
// the cap is still reported; stats --follow refuses the flag.
func TestMaxRows(t *testing.T) {
	out, errOut, code := run(t, "", "compute", "--max-rows", "10", "--config", sampleConfigPath, samplePath)
	if code != exitOK {
		t.Fatalf("status %d (stderr %q)", code, errOut)
	}
	if n := strings.Count(out, "\n"); n != 10 {
		t.Errorf("%d records out, want 10", n)
	}
	if want := `rewardlens: warning: read only the first 10 trajectories (--max-rows); the rest of the input was not read, and the cap cut the last group read (step 0, group "p01")`; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q does not say %q", errOut, want)
	}
	var lines strings.Builder
	for i := range 200 {
		if i == 3 {
			lines.WriteString("{not json\n")
		}
		fmt.Fprintf(&lines, `{"group":"g%d","metadata":{"a":%d}}`+"\n", i/4, i%4)
	}
	dir := writeFiles(t, map[string]string{"run.jsonl": lines.String()})
	_, errOut, code = run(t, "", "stats", "--skip-invalid-lines", "--max-rows", "100", filepath.Join(dir, "run.jsonl"))
	if code != exitOK || !strings.Contains(errOut, "rewardlens: skipped 1 invalid line") || !strings.Contains(errOut, "run.jsonl:4:") {
		t.Errorf("stats --skip-invalid-lines --max-rows 100: status %d, stderr %q; want the skipped line 4 reported", code, errOut)
	}
	if _, errOut, code := run(t, "", "stats", "--follow", "--max-rows", "10", samplePath); code != exitBadInput || !strings.Contains(errOut, "--max-rows is not for --follow") {
		t.Errorf("stats --follow --max-rows: status %d, stderr %q", code, errOut)
	}
}

// TestNotANumberSaysTheValue: a value that is not a number ("reward":
// "1.0") is counted per cause with where the first was read and what it
// was, quoted and escaped, in every format and wherever the record holds
// it; when no trajectory is valid, the error says it too.
func TestNotANumberSaysTheValue(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"metadata.jsonl": `{"id":"a","group":"g","metadata":{"reward":0.5}}` + "\n" + `{"id":"b","group":"g","metadata":{"reward":"1.0"}}` + "\n" + `{"id":"c","group":"g","metadata":{"reward":"x"}}` + "\n",
		"top.jsonl":      `{"id":"a","group":"g","reward":0.5}` + "\n" + `{"id":"b","group":"g","reward":"1.0"}` + "\n",
		"rows.csv":       "id,group,reward\na,g,0.5\nb,g,1.0!\n",
		"escape.jsonl":   `{"id":"a","group":"g","reward":0.5}` + "\n" + `{"id":"b","group":"g","reward":"\u001b[2J"}` + "\n",
		"none.jsonl":     `{"id":"b","group":"g","reward":"high"}` + "\n",
	})
	for _, c := range []struct{ file, want string }{
		{"metadata.jsonl", `reward: not a number ×2 (first at PATH:2: the string "1.0")`},
		{"top.jsonl", `reward: not a number ×1 (first at PATH:2: the string "1.0")`},
		{"rows.csv", `reward: not a number ×1 (first at PATH:3: the string "1.0!")`},
		{"escape.jsonl", `reward: not a number ×1 (first at PATH:2: the string "\x1b[2J")`},
	} {
		path := filepath.Join(dir, c.file)
		_, errOut, code := run(t, "", "compute", "--objective", "reward=reward", path)
		if want := strings.ReplaceAll(c.want, "PATH", path); code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr %q; want it to say %q", c.file, code, errOut, want)
		}
	}
	path := filepath.Join(dir, "none.jsonl")
	_, errOut, code := run(t, "", "compute", "--objective", "reward=reward", path)
	if want := `not a number (a string, a list or a map) in 1 trajectory (the first: the string "high")`; code != exitBadInput || !strings.Contains(errOut, want) {
		t.Errorf("no valid trajectory: status %d, stderr %q; want it to say %q", code, errOut, want)
	}
}
