package layouts

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/loaders"
)

// trlMaxFilesNamed is how many files whose log disagrees with the
// weights read trlWeightsAcrossFiles names, with their own weights.
const trlMaxFilesNamed = 3

// trlWeightsAcrossFiles is TRL's filesWarning: the "read as" line gives
// the weights that reproduce the first file's logged advantage
// (trlFloatRewardColumns), and a run's tables, one per logging step, are
// all of the run's reward_weights. It checks them against each other
// file's log, on the rows of its groups of the usual size (trainRows),
// as the line's own weights are found: its own weights are fitted
// (fitWeights, scaledWeights), and the first file's disagree when, in
// the nearest of TRL's settings (nearestDiff), they are trlFactorTells
// times as far from its log as its own at least, and beyond what
// rounding the line's weights to 3 digits may cost (trlRoundedNoise):
// as far as the common factors its log rules out. Where either log tells
// only the weights' ratios, the ratios are compared (each under the
// factor nearest the log). It says which files they disagree with, each
// with its own weights; "" when none, when the line gives no weights
// (cfg names the objectives, or the first file's plain sum reproduces
// its log) or there is one file. A file whose advantages are all 0 (an
// evaluation table) tells nothing; one that cannot be read is the
// load's error.
func trlWeightsAcrossFiles(cfg setup.Config, files []loaders.FileFields) string {
	if len(files) < 2 || !usesPareto(cfg) || len(cfg.Objectives) > 0 || files[0].Columns == nil {
		return ""
	}
	first, _, _ := trlNullColumns(files[0])
	lead, _ := trlLeadingFloats(first)
	read, err := trlReadWeights(first, lead)
	if err != nil || !read.count.weighted {
		return ""
	}
	columns := lead[:read.count.k]
	tables := readTRLTables(files[1:], columns)
	var differ []string
	for _, f := range files[1:] {
		table, ok := tables[f.Path]
		if !ok {
			continue
		}
		if own, disagree := table.weightsDisagree(columns, read); disagree {
			differ = append(differ, sourceOf(f)+"'s being "+own)
		}
	}
	if len(differ) == 0 {
		return ""
	}
	named := differ[:min(len(differ), trlMaxFilesNamed)]
	if more := len(differ) - len(named); more > 0 {
		named = append(named, fmt.Sprintf("and %d more %s", more, english.Plural(more, "file")))
	}
	weights := "weights"
	if read.ratiosOnly {
		weights = "weights' ratios"
	}
	return fmt.Sprintf("the %s read from %s (%s) are not those that the logged advantage of other files tells, %s (the reward weights changed within the run, or the files are of more than one run: no one set of weights is the run's)",
		weights, sourceOf(first), trlWeightsText(columns, read.weights, ", "), strings.Join(named, ", "))
}

// readTRLTables reads the tables of files, by path, of their reward
// columns columns: the files of a format in one load, which reads them
// in parallel. A format whose files cannot be read gives none (their
// load later says why).
func readTRLTables(files []loaders.FileFields, columns []string) map[string]*trlTable {
	paths := map[loaders.Format][]string{}
	for _, f := range files {
		paths[f.Format] = append(paths[f.Format], f.Path)
	}
	tables := map[string]*trlTable{}
	for format, ps := range paths {
		data, err := loaders.Load(ps, loaders.Options{Format: format})
		if err != nil {
			continue
		}
		rows := data.Trajectories
		for len(rows) > 0 {
			source := rows[0].Source
			n := 1
			for n < len(rows) && rows[n].Source == source {
				n++
			}
			tables[source] = trlTableOf(rows[:n], columns)
			rows = rows[n:]
		}
	}
	return tables
}

// weightsDisagree reports whether the weights of the reward columns read
// from the first file (trlWeightsAcrossFiles) disagree with t's logged
// advantage, and says t's own: "a 4, b 1", in their ratios when its log
// tells only those, or that no weighted sum reproduces it. A
// table whose logged advantages are all 0 agrees.
func (t *trlTable) weightsDisagree(columns []string, read trlWeightsRead) (own string, disagree bool) {
	rows := t.trainRows()
	if !slices.ContainsFunc(rows, func(i int) bool { return math.Abs(t.advantage[i]) > trlTolerance }) {
		return "", false
	}
	// Within that of rounding, the first's agree whatever t's own: those
	// are fitted only for a table that may disagree.
	if t.nearestDiff(read.weights, read.ratiosOnly, rows) <= trlFactorTells*trlRoundedNoise {
		return "", false
	}
	ratios, variant, ok := t.fitWeights(len(columns), rows)
	if !ok {
		return "none in TRL's settings (no weighted sum of the rewards reproduces its log)", t.nearestDiff(read.weights, read.ratiosOnly, rows) > trlTolerance
	}
	weights, ratiosOnly := t.scaledWeights(len(columns), ratios, variant, rows)
	own = trlWeightsText(columns, weights, ", ")
	if ratiosOnly {
		own = "in the ratios " + trlWeightsText(columns, weights, " : ")
	}
	ownDiff := t.nearestDiff(weights, ratiosOnly, rows)
	return own, t.nearestDiff(read.weights, read.ratiosOnly || ratiosOnly, rows) > trlFactorTells*max(ownDiff, trlRoundedNoise)
}

// nearestDiff returns the largest |difference| over rows between the
// logged advantage and TRL's with the weights of the reward columns, in
// the setting of trlVariants where it is smallest: the weights as they
// are, or, with ratiosOnly, times the factor nearest the log
// (nearestFactor).
func (t *trlTable) nearestDiff(weights []float64, ratiosOnly bool, rows []int) float64 {
	k := len(weights)
	nearest := math.Inf(1)
	for _, v := range trlVariants {
		maxDiff := func(c float64) float64 { return t.weightedMaxDiff(k, v, c, weights, rows) }
		c := 1.0
		if ratiosOnly && !v.unscaled() {
			c = nearestFactor(maxDiff)
		}
		nearest = min(nearest, maxDiff(c))
	}
	return nearest
}
