package cmd

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// hostile are text from data that would act on a terminal: one of each
// class of control the CLI must neutralise on stderr and in stats' table.
var hostile = []string{
	"\x1b[2J\x1b[H",              // CSI: clear the screen
	"\x1b]0;pwned\x07",           // OSC 0: window title
	"\x1b]2;pwned\x1b\\",         // OSC 2, ST-terminated
	"\x1b]52;c;cHduZWQ=\x07",     // OSC 52: write the clipboard
	"\x1bPq#0;2;0;0;0\x1b\\",     // DCS
	"\a\b\r\x7f",                 // C0 and DEL
	"\u009b2J\u0090x\u009c",      // C1: CSI, DCS, ST
	"abc\u202eevil\u202c\u2066x", // bidi override and isolate
	// invisible: zero-width space, word joiner, byte order mark, variation
	// selectors, a tag, an unassigned tag code point
	"zw\u200b\u2060\ufeff\ufe01\U000E0100\U000E0041\U000E0002",
}

// checkClean fails when text holds a control character other than a
// newline (the CLI prints no escape sequence of its own), a format
// character (bidi controls, zero-width ones, tags), a variation selector or
// another code point of plane 14: hostile holds no emoji nor a word that
// needs one.
func checkClean(t *testing.T, where, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		t.Errorf("%s: not UTF-8: %q", where, text)
	}
	for _, r := range text {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			unicode.Is(unicode.Cf, r) || (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0000 && r <= 0xeffff) {
			i := strings.IndexRune(text, r)
			t.Errorf("%s: control %U is printed, in %q", where, r, text[max(i-60, 0):min(i+60, len(text))])
			return
		}
	}
}

// hostileJSONL is a file whose ids, groups, responses and metadata keys and
// values are hostile, with a duplicate id, and, each with a hostile value,
// a line with a wrong type and a malformed line.
func hostileJSONL() string {
	var b strings.Builder
	for i, h := range hostile {
		line, _ := json.Marshal(map[string]any{
			"id": "id" + h, "group": "g" + hostile[i%2], "response": "r" + h,
			"metadata": map[string]any{"accuracy": float64(i%3) / 2, "safety": float64(i % 2), "k" + h: "v" + h, "len": i},
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteString(`{"id":"id` + hostile[7] + `","metadata":{"accuracy":1}}` + "\n") // a duplicate id, without safety
	b.WriteString(`{"batch":"` + hostile[7] + `"}` + "\n")
	b.WriteString(`{"metadata":` + hostile[6] + "\n")
	return b.String()
}

// TestHostileTextOnStderr runs the CLI on hostile file names, settings
// and data: no message on stderr may carry a control character.
func TestHostileTextOnStderr(t *testing.T) {
	name := "runs" + strings.Join(hostile[:5], "") + hostile[7] + ".jsonl"
	dir := writeFiles(t, map[string]string{
		name:                           hostileJSONL(),
		"bad" + hostile[1] + ".csv":    "id,x\na,1,2\n",
		"cfg" + hostile[3] + ".toml":   `"key` + strings.ReplaceAll(hostile[0], "\x1b", `\u001b`) + `" = 1` + "\n",
		"expr.toml":                    "[[objective]]\nname = \"o\"\nexpr = \"metadata.a + \\u001b]0;t\\u0007\"\n",
		"type" + hostile[2] + ".jsonl": `{"step_count":"` + hostile[7] + `"}` + "\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	acc := "acc" + hostile[0] + "=metadata.accuracy"
	for _, args := range [][]string{
		{"compute", p(name)}, // the malformed line, in a file with a hostile name
		{"compute", "--skip-invalid-lines", "--objective", acc, "--objective", "safe" + hostile[7] + "=metadata.safety", p(name)},
		{"stats", "--skip-invalid-lines", "--health", "--objective", acc, p(name)},
		{"compute", p("bad" + hostile[1] + ".csv")},
		{"compute", p("type" + hostile[2] + ".jsonl")},
		{"compute", p("missing" + hostile[4] + ".jsonl")},
		{"compute", "--config", p("cfg" + hostile[3] + ".toml"), p(name)},
		{"compute", "--config", p("expr.toml"), p(name)},
		{"compute", "--config", p("missing" + hostile[5] + ".toml"), p(name)},
		{"compute", "--method", hostile[6], p(name)},
		{"compute", "--objective", "o=metadata." + hostile[0], p(name)},
		{"compute", "--objective", "o=1", "--weight", hostile[7] + "=1", p(name)},
		{"compute", "--" + hostile[1], p(name)},
		{"stats", "--format", hostile[3], p(name)},
	} {
		_, errOut, code := run(t, "", args...)
		where := fmt.Sprintf("%q (status %d)", args, code)
		if errOut == "" {
			t.Errorf("%s: nothing on stderr", where)
		}
		checkClean(t, where, errOut)
	}
}

// TestHostileTextInStatsTable prints stats' table, with the health checks,
// on hostile objective names and invalid causes.
func TestHostileTextInStatsTable(t *testing.T) {
	args := []string{"stats", "--skip-invalid-lines", "--health", "--baseline", "1",
		"--objective", "acc" + hostile[0] + "=metadata.accuracy", "--objective", "safe" + hostile[7] + "=metadata.safety",
		"--objective", "len" + hostile[6] + "=metadata.len", "-"}
	out, errOut, code := run(t, hostileJSONL(), args...)
	if code != 0 && code != exitHealthAlert {
		t.Fatalf("status %d: %s", code, errOut)
	}
	checkClean(t, "stats table", out)
	checkClean(t, "stats stderr", errOut)
	if !strings.Contains(out, `acc\x1b[2J\x1b[H`) {
		t.Errorf("the objective name is not shown escaped:\n%s", out)
	}
}

// TestHostileTextInJSONOutput checks that compute's JSONL and JSON and
// stats' JSON escape every control and invisible character (JSON's own
// escapes and \u for C1 controls, format characters and variation
// selectors), and read back to the very ids and names.
func TestHostileTextInJSONOutput(t *testing.T) {
	obj := "safe" + hostile[6] + hostile[7]
	for _, format := range []string{"jsonl", "json"} {
		out, errOut, code := run(t, hostileJSONL(), "compute", "--skip-invalid-lines", "--format", format, "--objective", obj+"=metadata.safety", "-")
		if code != 0 {
			t.Fatalf("status %d: %s", code, errOut)
		}
		checkClean(t, "compute "+format, out)
		recs := decodeRecords(t, format, out)
		for i, h := range hostile {
			if recs[i].ID != "id"+h || recs[i].Objectives[obj] == nil {
				t.Errorf("compute %s: record %d reads back as %+v, want id %q and objective %q", format, i, recs[i], "id"+h, obj)
			}
		}
	}
	out, _, _ := run(t, hostileJSONL(), "stats", "--skip-invalid-lines", "--format", "json", "--objective", obj+"=metadata.safety", "-")
	checkClean(t, "stats json", out)
	var report statsReport
	if err := json.Unmarshal([]byte(out), &report); err != nil || report.Objectives[0] != obj {
		t.Errorf("stats json: %v, objectives %q, want %q", err, report.Objectives, obj)
	}
}

// decodeRecords reads compute's output in format, json or jsonl.
func decodeRecords(t *testing.T, format, out string) []record {
	t.Helper()
	var recs []record
	if format == "json" {
		if err := json.Unmarshal([]byte(out), &recs); err != nil {
			t.Fatalf("output is not JSON: %v", err)
		}
		return recs
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var r record
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("output is not JSONL: %v", err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestHostileTextInCSVOutput checks that compute's and prompts' CSV,
// which has no escape, write ids, groups and prompts as the dashboard
// shows them (textsafe.Line) rather than raw, but for line breaks and
// tabs, and say so on stderr, with how many cells: JSONL keeps the exact
// text.
func TestHostileTextInCSVOutput(t *testing.T) {
	out, errOut, code := run(t, hostileJSONL(), "compute", "--skip-invalid-lines", "--format", "csv", "-")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	checkClean(t, "compute csv", out)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hostile {
		if want := textsafe.Line("id" + h); rows[i+1][0] != want {
			t.Errorf("row %d: id %q, want %q", i, rows[i+1][0], want)
		}
	}
	// Every hostile id, the duplicate, and the groups of the two first.
	want := fmt.Sprintf("warning: %d CSV cells (ids, groups or sources) hold control or invisible characters", len(hostile)+1+len(hostile))
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr does not say %q:\n%s", want, errOut)
	}

	// The prompts: two hostile ones, one with a line break and a tab kept.
	text := ""
	for i, p := range []string{"p" + hostile[0], "line 1\n\tline 2", "p" + hostile[8]} {
		line, _ := json.Marshal(map[string]any{"group": p, "metadata": map[string]any{"acc": float64(i % 2)}})
		text += strings.Repeat(string(line)+"\n", 2)
	}
	out, errOut, code = run(t, text, "prompts", "--format", "csv", "--objective", "acc=metadata.acc", "-")
	if code != 0 {
		t.Fatalf("prompts: status %d: %s", code, errOut)
	}
	checkClean(t, "prompts csv", out)
	rows, err = csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, row := range rows[1:] {
		prompts = append(prompts, row[0])
	}
	if wantPrompts := []string{textsafe.Line("p" + hostile[0]), "line 1\n\tline 2", textsafe.Line("p" + hostile[8])}; !slices.Equal(prompts, wantPrompts) {
		t.Errorf("prompts %q, want %q", prompts, wantPrompts)
	}
	if want := "warning: 2 CSV cells (prompts) hold control or invisible characters"; !strings.Contains(errOut, want) {
		t.Errorf("prompts: stderr does not say %q:\n%s", want, errOut)
	}
}

// TestHostileTextInFollowJSONLines checks that stats --follow's JSON lines
// escape what stats' JSON does: an objective named with invisible
// characters, in a finding's objective and message.
func TestHostileTextInFollowJSONLines(t *testing.T) {
	shortQuiet(t)
	dir := writeFiles(t, map[string]string{"step_1.jsonl": strings.Repeat(`{"group":"g","metadata":{"x":1}}`+"\n", 2) +
		strings.Repeat(`{"group":"g","metadata":{}}`+"\n", 2)})
	obj := "o" + hostile[8]
	f := startFollowing(t, "stats", "--follow", "--health", "--format", "json", "--objective", obj+"=metadata.x", dir)
	f.await(t, `"check":"invalid_fraction"`)
	f.stop()
	checkClean(t, "stats --follow json", f.out.String())
	var line struct{ Findings []struct{ Message string } }
	if err := json.Unmarshal([]byte(strings.SplitN(f.out.String(), "\n", 2)[0]), &line); err != nil || len(line.Findings) == 0 || !strings.Contains(line.Findings[0].Message, obj) {
		t.Errorf("the first line reads back as %+v (%v), want a finding naming %q", line, err, obj)
	}
}
