package cmd

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The READMEs whose commands TestREADMECommands runs, from the module
// root.
var readmes = []string{"README.md", "sample_data/examples/README.md"}

// maxSkipped bounds how many README commands TestREADMECommands may leave
// out (the dashboard's, which need a terminal, and --follow's, which run
// until interrupted): the rest must run.
const maxSkipped = 6

// readmeCommand is a rewardlens command shown in a README.
type readmeCommand struct {
	where string // README:LINE
	text  string // as written
	args  []string
	// stdin is the file a `cat FILE |` before the command pipes in ("" for
	// none).
	stdin string
	// status is the exit status its comment gives ("# exit status 3"),
	// else 0.
	status int
	// goRun is set for `go run . ARGS`, unset for `rewardlens ARGS`.
	goRun bool
}

// checkStatusForm returns an error when c shows a status other than 0
// through `go run .`, which exits 1 whenever the program does not exit 0:
// pasted, such a line would not give the status its comment says.
func checkStatusForm(c readmeCommand) error {
	if c.goRun && c.status != 0 {
		return fmt.Errorf("%s: %s: go run exits 1, not %d: show it as `rewardlens ...`, the installed binary", c.where, c.text, c.status)
	}
	return nil
}

// TestREADMECommands runs every command the READMEs show, as a person
// would paste it into a shell at the module root of a fresh clone: `go run
// . ARGS` and, in sh blocks, `rewardlens ARGS` run through Main. Each file
// it names must exist (also for the commands left out); each must exit 0,
// or with the status its comment gives, which only `rewardlens` can show
// (checkStatusForm). The commands come from the
// READMEs, not from a list here, so that a command added there is run.
func TestREADMECommands(t *testing.T) {
	t.Chdir(repoRoot)
	var cmds []readmeCommand
	for _, path := range readmes {
		cmds = append(cmds, readmeCommands(t, path)...)
	}
	var ran, skipped []string
	for _, c := range cmds {
		if err := checkStatusForm(c); err != nil {
			t.Error(err)
		}
		if reason := checkREADMECommand(t, c); reason != "" {
			skipped = append(skipped, fmt.Sprintf("%s: %s (%s)", c.where, c.text, reason))
		} else {
			ran = append(ran, c.text)
		}
	}
	t.Logf("ran %d README commands; left out %d:\n%s", len(ran), len(skipped), strings.Join(skipped, "\n"))
	if len(skipped) > maxSkipped || len(ran) < 2*len(skipped) || len(ran) < 10 {
		t.Errorf("ran %d commands and left out %d: want at least 10 run, at most %d left out, and twice as many run as left out",
			len(ran), len(skipped), maxSkipped)
	}
}

// checkREADMECommand checks that the files c names exist and runs it,
// unless it is the dashboard or follows its inputs: then it returns why
// it did not run it.
func checkREADMECommand(t *testing.T, c readmeCommand) (skipped string) {
	t.Helper()
	root := newRootCommand(IO{})
	root.InitDefaultCompletionCmd(c.args...) // as Execute does
	cmd, rest, err := root.Find(c.args)
	if err != nil {
		t.Errorf("%s: %s: %v", c.where, c.text, err)
		return ""
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: %s: %v", c.where, c.text, err)
		return ""
	}
	var files []string
	if strings.Contains(cmd.Use, "FILE") {
		files = cmd.Flags().Args()
	}
	if f := cmd.Flags().Lookup("config"); f != nil && f.Changed {
		files = append(files, f.Value.String())
	}
	if c.stdin != "" {
		files = append(files, c.stdin)
	}
	for _, f := range files {
		if f == "-" {
			continue
		}
		matches, err := filepath.Glob(f)
		if err != nil || len(matches) == 0 {
			t.Errorf("%s: %s: names %s, which does not exist", c.where, c.text, f)
		}
	}
	switch {
	case cmd == root:
		return "the dashboard needs a terminal"
	case cmd.Flags().Lookup("follow") != nil && cmd.Flags().Lookup("follow").Changed:
		return "--follow runs until interrupted"
	}
	runREADMECommand(t, c, cmd.Flags().Lookup("out") != nil && cmd.Flags().Lookup("out").Changed)
	return ""
}

// runREADMECommand runs c through Main, its --out in a temporary directory.
func runREADMECommand(t *testing.T, c readmeCommand, withOut bool) {
	t.Helper()
	args := expandGlobs(c.args)
	out := ""
	if withOut {
		args, out = redirectOut(args, t.TempDir())
	}
	stdin := []byte{}
	if c.stdin != "" {
		var err error
		if stdin, err = os.ReadFile(c.stdin); err != nil {
			t.Errorf("%s: %v", c.where, err)
			return
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := Main(ctx, args, IO{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr})
	if code != c.status {
		t.Errorf("%s: %s: exit status %d, want %d; stderr:\n%s", c.where, c.text, code, c.status, stderr.String())
		return
	}
	if code == 0 && out == "" && stdout.Len() == 0 {
		t.Errorf("%s: %s: wrote nothing", c.where, c.text)
	}
	if out != "" && code == 0 {
		if info, err := os.Stat(out); err != nil || info.Size() == 0 {
			t.Errorf("%s: %s: --out wrote nothing (%v)", c.where, c.text, err)
		}
	}
}

// expandGlobs expands the arguments with shell patterns, as the shell
// would.
func expandGlobs(args []string) []string {
	var out []string
	for _, a := range args {
		if matches, _ := filepath.Glob(a); strings.ContainsAny(a, "*?[") && len(matches) > 0 {
			out = append(out, matches...)
		} else {
			out = append(out, a)
		}
	}
	return out
}

// redirectOut returns args with the path of --out (or -o) moved into dir,
// and that path.
func redirectOut(args []string, dir string) ([]string, string) {
	args = append([]string{}, args...)
	for i, a := range args {
		switch {
		case (a == "--out" || a == "-o") && i+1 < len(args):
			args[i+1] = filepath.Join(dir, filepath.Base(args[i+1]))
			return args, args[i+1]
		case strings.HasPrefix(a, "--out="):
			args[i] = "--out=" + filepath.Join(dir, filepath.Base(strings.TrimPrefix(a, "--out=")))
			return args, strings.TrimPrefix(args[i], "--out=")
		}
	}
	return args, ""
}

var (
	// inlineGoRun is an inline code span that runs rewardlens.
	inlineGoRun = regexp.MustCompile("`(go run \\.(?: [^`]*)?)`")
	// statusComment is a comment that gives the command's exit status.
	statusComment = regexp.MustCompile(`exit status (\d+)`)
)

// readmeCommands returns the commands of the README at path: the lines of
// its sh blocks that run `go run .` or `rewardlens` (a line ending in a
// backslash goes on on the next), after a `cat FILE |` or not, and its
// inline code spans that run `go run .`.
func readmeCommands(t *testing.T, path string) []readmeCommand {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		cmds    []readmeCommand
		fence   string // the open block's language, "" outside blocks
		inBlock bool
		pending string // a line continued with a backslash
		start   int
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock = !inBlock
			fence = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```"))
			continue
		}
		where := path + ":" + strconv.Itoa(n)
		if !inBlock {
			for _, m := range inlineGoRun.FindAllStringSubmatch(line, -1) {
				if c, ok := parseCommand(t, where, m[1]); ok {
					cmds = append(cmds, c)
				}
			}
			continue
		}
		if fence != "sh" && fence != "bash" && fence != "shell" {
			continue
		}
		if pending == "" {
			start = n
		}
		if strings.HasSuffix(line, "\\") {
			pending += strings.TrimSuffix(line, "\\") + " "
			continue
		}
		text := strings.TrimSpace(pending + line)
		pending = ""
		if c, ok := parseCommand(t, path+":"+strconv.Itoa(start), text); ok {
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// parseCommand reads a shell command line; ok is false when it does not
// run rewardlens.
func parseCommand(t *testing.T, where, text string) (c readmeCommand, ok bool) {
	t.Helper()
	words, comment, err := shellWords(text)
	if err != nil {
		t.Errorf("%s: %q: %v", where, text, err)
		return c, false
	}
	c = readmeCommand{where: where, text: text}
	if m := statusComment.FindStringSubmatch(comment); m != nil {
		c.status, _ = strconv.Atoi(m[1])
	}
	// The pipeline's segments: a `cat FILE` before, what comes after
	// (tee, jq) does not change rewardlens' status.
	var segments [][]string
	segment := []string{}
	for _, w := range words {
		if w == "|" {
			segments = append(segments, segment)
			segment = []string{}
			continue
		}
		segment = append(segment, w)
	}
	segments = append(segments, segment)
	for i, seg := range segments {
		var args []string
		switch {
		case len(seg) >= 3 && seg[0] == "go" && seg[1] == "run" && seg[2] == ".":
			args, c.goRun = seg[3:], true
		case len(seg) >= 1 && seg[0] == "rewardlens":
			args = seg[1:]
		default:
			continue
		}
		if i > 0 {
			prev := segments[i-1]
			if len(prev) != 2 || prev[0] != "cat" {
				t.Errorf("%s: %q: only `cat FILE |` may come before rewardlens", where, text)
				return c, false
			}
			c.stdin = prev[1]
		}
		c.args = withoutRedirects(args)
		return c, true
	}
	return c, false
}

// withoutRedirects drops the shell's output redirections (> FILE).
func withoutRedirects(args []string) []string {
	out := []string{}
	for i := 0; i < len(args); i++ {
		if args[i] == ">" || args[i] == ">>" || args[i] == "2>" {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// shellWords splits a command line as a POSIX shell does, for what
// READMEs hold: words, single and double quotes, backslashes, `|`, `>`
// and a # comment, which it returns apart.
func shellWords(line string) (words []string, comment string, err error) {
	var (
		word    strings.Builder
		inWord  bool
		quote   rune
		escaped bool
	)
	flush := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	for i, r := range line {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' {
				escaped = true
			} else {
				word.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return words, line[i:], nil
		case r == ' ' || r == '\t':
			flush()
		case r == '|' || r == '>':
			flush()
			if r == '>' && len(words) > 0 && words[len(words)-1] == ">" {
				words[len(words)-1] = ">>"
			} else {
				words = append(words, string(r))
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, "", fmt.Errorf("unterminated quote or escape")
	}
	flush()
	return words, "", nil
}

func TestShellWords(t *testing.T) {
	words, comment, err := shellWords(`cat a.jsonl | go run . compute --objective 'x=a + b' --objective "y=\"q\"" a\ b > out.txt  # exit status 2`)
	want := []string{"cat", "a.jsonl", "|", "go", "run", ".", "compute", "--objective", "x=a + b", "--objective", `y="q"`, "a b", ">", "out.txt"}
	if err != nil || strings.Join(words, "\x00") != strings.Join(want, "\x00") || comment != "# exit status 2" {
		t.Errorf("words %q, comment %q, err %v", words, comment, err)
	}
	c, ok := parseCommand(t, "x", `cat a.jsonl | go run . compute -  # exit status 2`)
	if !ok || c.stdin != "a.jsonl" || c.status != 2 || strings.Join(c.args, " ") != "compute -" {
		t.Errorf("parseCommand: %+v", c)
	}
	if err := checkStatusForm(c); err == nil {
		t.Error("`go run .` with exit status 2 was accepted")
	}
	c, ok = parseCommand(t, "x", `cat a.jsonl | rewardlens compute -  # exit status 2`)
	if !ok || c.goRun || checkStatusForm(c) != nil {
		t.Errorf("rewardlens with exit status 2: %+v, %v", c, checkStatusForm(c))
	}
	if c, _ = parseCommand(t, "x", `go run . compute a.jsonl`); !c.goRun || checkStatusForm(c) != nil {
		t.Errorf("go run with exit status 0: %+v, %v", c, checkStatusForm(c))
	}
	if _, ok := parseCommand(t, "x", "go test ./..."); ok {
		t.Error("go test was taken for a rewardlens command")
	}
	if _, _, err := shellWords(`go run . 'open`); err == nil {
		t.Error("an open quote was accepted")
	}
}

// TestREADMEReadAsLine: the README's example of the verl layout's "read
// as" line is, word for word, what compute says of sample_data/verl/,
// and the README's layout table gives the verl layout the float32 score
// that line ends with.
func TestREADMEReadAsLine(t *testing.T) {
	t.Chdir(repoRoot)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	example := regexp.MustCompile("e\\.g\\. `(read as verl [^`]*)`").FindStringSubmatch(text)
	if example == nil {
		t.Fatal("README has no example `read as verl ...` line")
	}
	_, errOut, code := run(t, "", "compute", "--out", filepath.Join(t.TempDir(), "r.jsonl"), "sample_data/verl/")
	if code != 0 || !strings.Contains(errOut, "rewardlens: "+example[1]+"\n") {
		t.Errorf("README's example %q is not compute's line (status %d):\n%s", example[1], code, errOut)
	}
	row := regexp.MustCompile("\\| `verl`: [^\n]*").FindString(string(readme))
	if !strings.Contains(row, "`--score-precision float32`") {
		t.Errorf("README's verl layout row lacks --score-precision float32: %s", row)
	}
}
