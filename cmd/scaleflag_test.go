package cmd

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestScaleFlagOverConfigNormalize: an explicit --scale group|batch asks
// for scaled rewards, overriding a config's normalize = false (flags win);
// with --no-normalize too it is a usage error naming both; a config that
// sets both scale = group|batch and normalize = false is warned of, saying
// which wins.
func TestScaleFlagOverConfigNormalize(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"a","group":"g","metadata":{"acc":1}}` + "\n" +
			`{"id":"b","group":"g","metadata":{"acc":0}}` + "\n" +
			`{"id":"c","group":"g","metadata":{"acc":0}}` + "\n",
		"off.toml":    "normalize = false\nmethod = \"grpo\"\n",
		"both.toml":   "normalize = false\nmethod = \"grpo\"\nscale = \"batch\"\n",
		"scaled.toml": "method = \"grpo\"\nscale = \"group\"\n",
	})
	data := filepath.Join(dir, "data.jsonl")
	// Scores 1, 0, 0: A = 2/3, -1/3, -1/3; the sample std is 1/sqrt(3).
	std1 := 1 / math.Sqrt(3)
	scaled := map[string]float64{"a": (2.0 / 3) / (std1 + 1e-4), "b": (-1.0 / 3) / (std1 + 1e-4), "c": (-1.0 / 3) / (std1 + 1e-4)}
	unscaled := map[string]float64{"a": 2.0 / 3, "b": -1.0 / 3, "c": -1.0 / 3}

	assertRewards(t, computeRecords(t, "--config", filepath.Join(dir, "off.toml"), "--objective", "acc=metadata.acc", data), unscaled)
	for _, scale := range []string{"group", "batch"} {
		recs := computeRecords(t, "--config", filepath.Join(dir, "off.toml"), "--scale", scale, "--objective", "acc=metadata.acc", data)
		assertRewards(t, recs, scaled)
	}

	_, errOut, code := run(t, "", "stats", "--method", "grpo", "--no-normalize", "--scale", "batch", "--objective", "acc=metadata.acc", data)
	if code != 2 || !strings.Contains(errOut, "--scale batch and --no-normalize contradict each other for method grpo") {
		t.Errorf("--no-normalize --scale batch: status %d, stderr %q; want 2 naming both", code, errOut)
	}
	// --scale none with --no-normalize says the same thing twice: no error.
	if _, errOut, code := run(t, "", "stats", "--method", "grpo", "--no-normalize", "--scale", "none", "--objective", "acc=metadata.acc", data); code != 0 {
		t.Errorf("--no-normalize --scale none: status %d, stderr %q", code, errOut)
	}

	both := filepath.Join(dir, "both.toml")
	_, errOut, code = run(t, "", "stats", "--config", both, "--objective", "acc=metadata.acc", data)
	want := "rewardlens: warning: " + both + `:3: scale = "batch" and normalize = false (line 1) contradict each other: normalize = false wins, the rewards are not scaled`
	if code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("config with both: status %d, stderr %q; want %q", code, errOut, want)
	}
	// A flag that settles it leaves nothing to warn of.
	for _, flags := range [][]string{{"--scale", "group"}, {"--no-normalize"}} {
		args := append([]string{"stats", "--config", both, "--objective", "acc=metadata.acc"}, flags...)
		if _, errOut, _ := run(t, "", append(args, data)...); strings.Contains(errOut, "contradict") {
			t.Errorf("%v: warned though a flag settles it: %q", flags, errOut)
		}
	}
	if _, errOut, _ := run(t, "", "stats", "--config", filepath.Join(dir, "scaled.toml"), "--objective", "acc=metadata.acc", data); strings.Contains(errOut, "warning") {
		t.Errorf("a consistent config warned: %q", errOut)
	}
}

// TestScaleFlagOnlyForScaleMethods: --scale group|batch turns the
// normalisation on only for a method that reads the scale (grpo): for
// gdpo and pareto, normalize = false stands and --scale is said to be
// ignored, and a config's scale with normalize = false contradicts
// nothing. The flag turned normalisation on for every method.
func TestScaleFlagOnlyForScaleMethods(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"a","group":"g","metadata":{"acc":1,"len":3}}` + "\n" +
			`{"id":"b","group":"g","metadata":{"acc":0,"len":1}}` + "\n" +
			`{"id":"c","group":"g","metadata":{"acc":0,"len":2}}` + "\n",
		"gdpo.toml":   "normalize = false\nmethod = \"gdpo\"\n",
		"off.toml":    "normalize = false\n",
		"pareto.toml": "normalize = false\nmethod = \"pareto\"\nscale = \"batch\"\n",
	})
	data := filepath.Join(dir, "data.jsonl")
	objectives := []string{"--objective", "acc=metadata.acc", "--objective", "len=metadata.len"}
	gdpo := append([]string{"--config", filepath.Join(dir, "gdpo.toml")}, objectives...)
	unscaled := computeRecords(t, append(gdpo, data)...)
	want := map[string]float64{}
	for id, r := range unscaled {
		want[id] = r.Reward
	}
	assertRewards(t, computeRecords(t, append(gdpo, "--scale", "group", data)...), want)
	_, errOut, code := run(t, "", append(append([]string{"compute"}, gdpo...), "--scale", "group", data)...)
	if w := "rewardlens: warning: --scale group is ignored: method gdpo does not read the scale"; code != 0 || !strings.Contains(errOut, w) {
		t.Errorf("gdpo --scale group: status %d, stderr %q; want %q", code, errOut, w)
	}

	pareto := filepath.Join(dir, "pareto.toml")
	out, errOut, code := run(t, "", "stats", "--config", pareto, "--scale", "group", "--objective", "acc=metadata.acc", data)
	if code != 0 || !strings.Contains(out, "normalize false") || !strings.Contains(errOut, "--scale group is ignored: method pareto") {
		t.Errorf("pareto --scale group: status %d, stdout %q, stderr %q; want normalize false, --scale said ignored", code, out, errOut)
	}
	if _, errOut, _ := run(t, "", "stats", "--config", pareto, "--objective", "acc=metadata.acc", data); strings.Contains(errOut, "contradict") {
		t.Errorf("pareto's config with scale and normalize = false: warned of a contradiction: %q", errOut)
	}
	// The method a layout sets counts: TRL's is grpo, which reads the scale.
	out, errOut, code = run(t, "", "stats", "--config", filepath.Join(dir, "off.toml"), "--scale", "group", trlDir)
	if code != 0 || !strings.Contains(out, "method grpo, scope group, scale group") || strings.Contains(errOut, "ignored") {
		t.Errorf("TRL's grpo --scale group over normalize = false: status %d, stderr %q; want scale group, nothing ignored", code, errOut)
	}
}

// TestScaleWithNoNormalizeByMethod: --scale group|batch with --no-normalize
// contradict each other only for a method that reads the scale (grpo,
// given or the layout's: TRL's), a usage error; for another (pareto, the
// default, and rloo) --scale is said to be ignored, as a config's scale is,
// and the rewards are those of --no-normalize alone. Both were refused
// under every method.
func TestScaleWithNoNormalizeByMethod(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"a","group":"g","metadata":{"acc":1}}` + "\n" +
			`{"id":"b","group":"g","metadata":{"acc":0}}` + "\n" +
			`{"id":"c","group":"g","metadata":{"acc":0.5}}` + "\n",
	})
	data := filepath.Join(dir, "data.jsonl")
	for _, method := range []string{"", "rloo"} {
		args := []string{"--no-normalize", "--objective", "acc=metadata.acc"}
		name := "pareto"
		if method != "" {
			args, name = append(args, "--method", method), method
		}
		recs := computeRecords(t, append(args, data)...)
		want := map[string]float64{}
		for id, r := range recs {
			want[id] = r.Reward
		}
		assertRewards(t, computeRecords(t, append(args, "--scale", "batch", data)...), want)
		_, errOut, code := run(t, "", append(append([]string{"compute"}, args...), "--scale", "batch", data)...)
		if w := "rewardlens: warning: --scale batch is ignored: method " + name + " does not read the scale"; code != 0 || !strings.Contains(errOut, w) {
			t.Errorf("%s: status %d, stderr %q; want %q", name, code, errOut, w)
		}
	}
	_, errOut, code := run(t, "", "stats", "--no-normalize", "--scale", "group", trlDir)
	if code != 2 || !strings.Contains(errOut, "--scale group and --no-normalize contradict each other for method grpo") {
		t.Errorf("TRL's grpo: status %d, stderr %q; want 2 naming both", code, errOut)
	}
}

// TestIgnoredMethodFlags: an explicit --group-of-one or --no-normalize
// that the method does not read is warned of as ignored, as --scale is:
// gpg and rpp-baseline give a group of one verl's value whatever is asked,
// grpo-passk 0; gpg, rpp-baseline and rloo have no normalisation. A value
// the method reads, or the one it fixes, warns of nothing. Both were
// ignored silently.
func TestIgnoredMethodFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"a","group":"g","metadata":{"acc":1}}` + "\n" +
			`{"id":"b","group":"g","metadata":{"acc":0}}` + "\n" +
			`{"id":"c","group":"h","metadata":{"acc":0.5}}` + "\n",
	})
	data := filepath.Join(dir, "data.jsonl")
	for _, c := range []struct {
		method string
		flags  []string
		want   string // "": no warning of an ignored flag
	}{
		{"gpg", []string{"--group-of-one", "zero"}, "--group-of-one zero is ignored: method gpg rewards a group of one by its score (verl's mean 0), fixed"},
		{"rpp-baseline", []string{"--group-of-one", "zero"}, "--group-of-one zero is ignored: method rpp-baseline rewards a group of one by its score (verl's mean 0), fixed"},
		{"grpo-passk", []string{"--group-of-one", "score"}, "--group-of-one score is ignored: method grpo-passk gives a group of one 0, fixed"},
		{"pareto", []string{"--group-of-one", "score"}, "--group-of-one score is ignored: method pareto does not read it"},
		{"gpg", []string{"--no-normalize"}, "--no-normalize is ignored: method gpg has no normalisation: its reward is verl's gpg advantage"},
		{"rpp-baseline", []string{"--no-normalize"}, "--no-normalize is ignored: method rpp-baseline has no normalisation: it is whitened over the batch"},
		{"gpg", []string{"--group-of-one", "score"}, ""},
		{"grpo", []string{"--group-of-one", "zero", "--no-normalize"}, ""},
		{"rloo", []string{"--group-of-one", "score"}, ""},
		{"grpo-passk", []string{"--no-normalize"}, ""},
	} {
		args := append(append([]string{"compute", "--objective", "acc=metadata.acc", "--method", c.method}, c.flags...), data)
		_, errOut, code := run(t, "", args...)
		switch {
		case code != 0:
			t.Errorf("%s %v: status %d, stderr %q", c.method, c.flags, code, errOut)
		case c.want == "" && strings.Contains(errOut, "ignored"):
			t.Errorf("%s %v: stderr %q, want nothing ignored", c.method, c.flags, errOut)
		case c.want != "" && !strings.Contains(errOut, "rewardlens: warning: "+c.want):
			t.Errorf("%s %v: stderr %q, want %q", c.method, c.flags, errOut, c.want)
		}
	}
}
