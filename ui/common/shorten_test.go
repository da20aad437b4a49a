package common

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestShortenGroups checks that the group column leaves out the words and
// lines all groups start with (a chat template's system prompt), and only
// those.
func TestShortenGroups(t *testing.T) {
	shorten := func(groups []string) []string {
		cut := SharedGroupPrefix(len(groups), func(j int) string { return groups[j] })
		out := slices.Clone(groups)
		if cut > 0 {
			for i := range out {
				out[i] = "…" + out[i][cut:]
			}
		}
		return out
	}
	for _, c := range []struct {
		groups, want []string
	}{
		{[]string{`system\nYou are a helper.\nuser\nWhat is 7 * 8?`, `system\nYou are a helper.\nuser\nWhat is 12 + 30?`, `system\nYou are a helper.\nuser\nWhat is 7 * 8?`},
			[]string{"…7 * 8?", "…12 + 30?", "…7 * 8?"}},
		{[]string{"p01", "p02"}, []string{"p01", "p02"}}, // nothing long shared
		{[]string{"a long shared prompt x", "a long shared prompt x"}, []string{"a long shared prompt x", "a long shared prompt x"}}, // one group
		{[]string{"a long shared prompt", "a long shared prompt and more"}, []string{"…prompt", "…prompt and more"}},
		{[]string{"only one row with spaces in it"}, []string{"only one row with spaces in it"}},
		{[]string{"é é é é é é é é a", "é é é é é é é é b"}, []string{"…a", "…b"}},
		// Lines as well as words: a chat template without a space.
		{[]string{"<|im_start|>user\nSolve x.<|im_end|>", "<|im_start|>user\nFactor y.<|im_end|>"}, []string{"…Solve x.<|im_end|>", "…Factor y.<|im_end|>"}},
		{[]string{"system\nYou are a helper.\nuser\nWhat is 7 * 8?", "system\nYou are a helper.\nuser\nWhy?"}, []string{"…What is 7 * 8?", "…Why?"}},
		// A group's rows one after another, as a table lists them (the
		// rows equal to the one before are passed over, which only saves
		// work).
		{[]string{"<|im_start|>user\nSolve x.", "<|im_start|>user\nSolve x.", "<|im_start|>user\nFactor y.", "<|im_start|>user\nFactor y."},
			[]string{"…Solve x.", "…Solve x.", "…Factor y.", "…Factor y."}},
		{[]string{"<|im_start|>user\nSolve x.", "<|im_start|>user\nSolve x."}, []string{"<|im_start|>user\nSolve x.", "<|im_start|>user\nSolve x."}},
	} {
		if got := shorten(c.groups); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.groups, got, c.want)
		}
	}
}

// ObjectiveName marks an objective named as what is shown beside it
// (verl's score, open-instruct's reward, a method's name), escaped; other
// names are as they are.
func TestObjectiveName(t *testing.T) {
	for name, want := range map[string]string{
		"score": "score (obj)", "reward": "reward (obj)", "grpo": "grpo (obj)",
		"accuracy": "accuracy", "score_2": "score_2", "a\x1b[31m": `a\x1b[31m`,
	} {
		if got := ObjectiveName(name); got != want {
			t.Errorf("ObjectiveName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestFitMiddle: a text wider than its cells keeps its head and tail
// around an ellipsis, in at most width cells, control characters escaped;
// one that fits is kept whole.
func TestFitMiddle(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{
		{"abcdefghij", 10, "abcdefghij"},
		{"abcdefghij", 7, "abc…hij"},
		{"abcdefghij", 6, "abc…ij"},
		{"ab\x1b[2Jcd", 20, `ab\x1b[2Jcd`},
		{"好好好好好", 6, "好…好"}, // wide characters: the cells, not the runes, counted
	} {
		if got := FitMiddle(c.s, c.width); got != c.want {
			t.Errorf("FitMiddle(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
	}
}

// TestScoreFormula: the formula names the normalisation, the gates and
// the penalty in use, and, narrower, keeps the penalty.
func TestScoreFormula(t *testing.T) {
	res := func(norm engine.ObjectiveNorm, constrained, gated bool) *engine.Result {
		ev := &engine.Evaluation{}
		if constrained {
			ev.Constraints = make([]scoring.ConstraintDef, 1)
		}
		if gated {
			ev.Gates = make([]scoring.GateDef, 1)
		}
		return &engine.Result{Evaluation: ev, Options: engine.Options{NormalizeObjectives: norm, Penalty: 1}}
	}
	for _, c := range []struct {
		res   *engine.Result
		width int
		want  string
	}{
		{res(engine.NormNone, false, false), 100, "s = Σ weight × objective (min goals negated)"},
		{res(engine.NormZScore, false, false), 100, "s = Σ weight × zscore(objective) (min goals negated)"},
		{res(engine.NormNone, true, false), 100, "s = Σ weight × objective − λ × violation (λ = 1; min goals negated)"},
		{res(engine.NormNone, true, true), 100, "s = Σ weight × gate × objective − λ × violation (λ = 1; min goals negated)"},
		{res(engine.NormNone, true, true), 47, "s = Σ weight × gate × objective − λ × violation"},
		{res(engine.NormNone, true, true), 38, "s = Σ w × objective − λ × violation"},
		{res(engine.NormNone, true, true), 20, "s = Σ w·o − λ·violation"},
		{res(engine.NormNone, false, false), 12, "s = Σ w·o"},
	} {
		if got := ScoreFormula(c.res, c.width); got != c.want {
			t.Errorf("in %d cells: %q, want %q", c.width, got, c.want)
		}
	}
}

func TestFormatWeight(t *testing.T) {
	for w, want := range map[float64]string{0.35: "0.35", -1: "-1.00", 2: "2.00", 0.333: "0.333", 1.0 / 3: "0.3333", 1e-9: "1e-09", math.NaN(): "by source"} {
		if got := FormatWeight(w); got != want {
			t.Errorf("FormatWeight(%v) = %q, want %q", w, got, want)
		}
	}
}

// TestFitKey: ids that share a long head and tail and differ in their
// middle keep the middle when cut, the shared prefix cut first (its
// head kept), then the shared suffix; a key without the affixes, or one
// that fits, is as FitMiddle leaves it.
func TestFitKey(t *testing.T) {
	ids := []string{
		"run-2026-11-27-experiment-very-long-identifier-s00-p03-c7-suffix-xyz",
		"run-2026-11-27-experiment-very-long-identifier-s00-p04-c7-suffix-xyz",
		"run-2026-11-27-experiment-very-long-identifier-s00-p10-c2-suffix-xyz",
	}
	a := SharedAffixes(len(ids), func(j int) string { return ids[j] })
	if want := (Affixes{"run-2026-11-27-experiment-very-long-identifier-s00-", "-suffix-xyz"}); a != want {
		t.Fatalf("SharedAffixes = %q, want %q (at separators)", a, want)
	}
	for _, c := range []struct {
		width int
		want  string
	}{
		{100, ids[0]},
		{28, "run-2026-1…p03-c7-suffix-xyz"},
		{18, "…p03-c7-suffix-xyz"},
		{12, "…p03-c7…-xyz"},
		{8, "…p03-c7…"},
		{7, "run…xyz"}, // the middle does not fit: FitMiddle
	} {
		if got := FitKey(ids[0], c.width, a); got != c.want || TextWidth(got) > c.width {
			t.Errorf("FitKey(%q, %d) = %q, want %q", ids[0], c.width, got, c.want)
		}
	}
	if got := FitKey("other-id-of-some-length", 10, a); got != FitMiddle("other-id-of-some-length", 10) {
		t.Errorf("a key without the affixes: %q", got)
	}
	for _, c := range []struct {
		keys []string
		want Affixes
	}{
		{[]string{"only-one"}, Affixes{}},
		{[]string{"same-key", "same-key"}, Affixes{}},
		{[]string{"run-1", "run-1-x"}, Affixes{"run-", ""}},           // within the shortest
		{[]string{"ab12", "ab13"}, Affixes{}},                         // no separator: a number is not split
		{[]string{"é-a-x", "é-b-x"}, Affixes{"é-", "-x"}},             // runes kept whole
		{[]string{"aé-1", "aè-1"}, Affixes{"", "-1"}},                 // a shared byte of two runes
		{[]string{"a-b-a", "a-b-a-b-a"}, Affixes{"a-b-", ""}},         // overlapping: the suffix from a separator
		{[]string{"p-1-é-s", "p-1-é-x-1-é-s"}, Affixes{"p-1-é-", ""}}, // the same, a rune of two bytes
	} {
		if got := SharedAffixes(len(c.keys), func(j int) string { return c.keys[j] }); got != c.want {
			t.Errorf("SharedAffixes(%q) = %q, want %q", c.keys, got, c.want)
		}
	}
}

// TestWrapKey checks that an id shows whole over the lines when it fits
// in them, broken at its separators, or at the width where that takes
// more lines; a longer one is cut in its middle to what the lines hold.
func TestWrapKey(t *testing.T) {
	for _, c := range []struct {
		key             string
		width, maxLines int
		want            []string
	}{
		{"short", 10, 3, []string{"short"}},
		{"run-2026-11-27-exp-s00-p03", 10, 3, []string{"run-2026-", "11-27-exp-", "s00-p03"}},
		{"aaaa-bbbbbbbbb-cc", 10, 2, []string{"aaaa-bbbbb", "bbbb-cc"}}, // 3 lines at separators
		{"abcdefghijklmnopqrstuvwxyz", 10, 3, []string{"abcdefghij", "klmnopqrst", "uvwxyz"}},
		{"run-2026-11-27-experiment-s00-p03-c7-xyz", 10, 2, []string{"run-2026-1", "…03-c7-xyz"}},
		{"id-\x1b[2J", 20, 1, []string{`id-\x1b[2J`}},
	} {
		got := WrapKey(c.key, c.width, c.maxLines)
		if !slices.Equal(got, c.want) {
			t.Errorf("WrapKey(%q, %d, %d) = %q, want %q", c.key, c.width, c.maxLines, got, c.want)
		}
		for _, l := range got {
			if TextWidth(l) > c.width {
				t.Errorf("WrapKey(%q, %d, %d): %q is wider than %d", c.key, c.width, c.maxLines, l, c.width)
			}
		}
	}
}

// TestReaderStatus: the line over an opened trajectory gives its id the
// width the status leaves, whole at 125 cells where half the line would
// cut it; with less room it is cut in its middle.
func TestReaderStatus(t *testing.T) {
	id := "run-2026-11-27-experiment-very-long-identifier-s00-p03-c7-suffix-xyz"
	status := " · 100% · esc: back to the plot"
	st := NewStyles(true, true)
	if got := ansi.Strip(ReaderStatus(st, id, status, 125)); got != id+status {
		t.Errorf("at 125 cells: %q", got)
	}
	if got := ansi.Strip(ReaderStatus(st, id, status, 80)); got != FitMiddle(id, 49)+status {
		t.Errorf("at 80 cells: %q", got)
	}
}

// TestFitTextKeepsWhatDiffers: a completion too wide is cut in the start
// the others share, its end kept next to what follows, then at its end.
func TestFitTextKeepsWhatDiffers(t *testing.T) {
	prefix := "Let me think. ↵ So the answer is \\boxed{"
	for _, c := range []struct {
		text, prefix string
		width        int
		want         string
	}{
		{prefix + "4096}", prefix, 100, prefix + "4096}"},
		{prefix + "4096}", prefix, 12, "…boxed{4096}"},
		{prefix + "4096} and more words", prefix, 8, "…4096} …"},
		{prefix + "7}", "", 8, "Let me …"},
		{"other text entirely", prefix, 8, "other t…"},
		{"<think>Attempt 1.</think> The answer", "<think>Attempt ", 27, "<think>Attempt 1.</think> …"},
	} {
		if got := FitText(c.text, c.width, c.prefix); got != c.want || TextWidth(got) > c.width {
			t.Errorf("FitText(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

// TestSharedGroupSuffix: prompts ending in one chat template's end leave
// it out, from a separator, not past their shared start.
func TestSharedGroupSuffix(t *testing.T) {
	keys := []string{"sys: Q one?<|im_end|>\n<|im_start|>assistant\n", "sys: Q two.<|im_end|>\n<|im_start|>assistant\n"}
	key := func(j int) string { return keys[j] }
	tail := SharedGroupSuffix(len(keys), key, 0)
	if got := CutGroupKey(keys[0], 5, tail); got != "…Q one?…" {
		t.Errorf("the first prompt shows as %q", got)
	}
	if SharedGroupSuffix(2, func(j int) string { return []string{"a end", "b end"}[j] }, 0) != 0 {
		t.Error("a shared end shorter than minSharedPrefix is left out")
	}
	// verl's plain template: its end is shorter, but whole lines.
	verl := []string{"system\nuser\nName a prime.\nassistant\n", "system\nuser\nWhat is 2 ** 10?\nassistant\n"}
	if tail := SharedGroupSuffix(2, func(j int) string { return verl[j] }, 12); CutGroupKey(verl[0], 12, tail) != "…Name a prime.…" {
		t.Errorf("verl's prompt shows as %q", CutGroupKey(verl[0], 12, tail))
	}
	if SharedGroupSuffix(2, func(j int) string { return []string{"a\n ", "b\n "}[j] }, 0) != 0 {
		t.Error("a shared end of blank lines is left out")
	}
	if got := KeyLine("a\nb\x1b"); got != `a`+LineBreak+`b\x1b` {
		t.Errorf("KeyLine = %q", got)
	}
}

// TestNormalizeTextsListsEveryValue: NormalizeTexts, whose widest the
// header keeps room for, holds every value NormalizeText gives, under
// every method, scale and normalisation.
func TestNormalizeTextsListsEveryValue(t *testing.T) {
	o := engine.DefaultOptions()
	for _, m := range engine.Methods {
		for _, scale := range engine.Scales {
			for _, normalize := range []bool{true, false} {
				o.Method, o.Scale, o.Normalize = m, scale, normalize
				if got := NormalizeText(o); got != "" && !slices.Contains(NormalizeTexts, got) {
					t.Errorf("%s, scale %s, normalize %v: %q is not in NormalizeTexts %q", m, scale, normalize, got, NormalizeTexts)
				}
			}
		}
	}
}

// TestFitWords: a line too wide is cut after the last word that fits,
// without the punctuation before the next nor half a parenthesis, its
// styles kept; a first word too wide alone is cut within it.
func TestFitWords(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		{"Rewards: pareto, z-scored; the weights (w) change the score only", 30, "Rewards: pareto, z-scored…"},
		{"4 groups · sorted by group ▲ · 1 without GRPO signal (zero spread)", 60, "4 groups · sorted by group ▲ · 1 without GRPO signal…"},
		{"4 groups · sorted by group ▲ · 1 without", 30, "4 groups · sorted by group ▲…"},
		{"accuracy mean (max 1)", 18, "accuracy mean…"},
		{"fits whole", 10, "fits whole"},
		{"Objectives", 6, "Objec…"},
	} {
		if got := FitWords(c.text, c.width); got != c.want || TextWidth(got) > c.width {
			t.Errorf("FitWords(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
	styled := "\x1b[1mbold words\x1b[0m and more"
	if got := FitWords(styled, 12); !strings.HasPrefix(got, "\x1b[1mbold") || ansi.Strip(got) != "bold words…" {
		t.Errorf("FitWords of a styled line = %q", got)
	}
}
