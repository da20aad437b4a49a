package layouts

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
)

// trlMaxFilesNamed is how many files whose log disagrees with the
// weights read RowsCheck's warning names, with their own weights.
const trlMaxFilesNamed = 3

// RowsCheck checks what the input files' rows say together, on the rows
// the load reads (Add), not read again: TRL's weights read from the first
// completions table, checked against every other table (trlWeightsCheck).
// Apply makes it; a nil RowsCheck checks nothing. Add and Warning may be
// called from different goroutines.
type RowsCheck struct {
	// first names the table the weights were read from, columns are its
	// reward columns, read what trlReadWeights found of them.
	first   string
	columns []string
	read    trlWeightsRead
	// others are the other files, in the order of the inputs.
	others []string

	mu      sync.Mutex
	tables  map[string]*trlTableBuilder // the rows of each of others added
	values  []float64                   // a row's reward columns, reused
	said    bool                        // Warning computed warning
	warning string
}

// trlWeightsCheck returns the check of the weights read, read, of the
// reward columns columns of the table first (a file's path), against the
// other tables' rows, which check (checkOthers) says.
func trlWeightsCheck(first string, columns []string, read trlWeightsRead) *RowsCheck {
	return &RowsCheck{first: first, columns: columns, read: read, values: make([]float64, len(columns))}
}

// checkOthers returns c checking the rows of others, the input files but
// the first, by path; nil, nothing to check, without any.
func (c *RowsCheck) checkOthers(others []string) *RowsCheck {
	if c == nil || len(others) == 0 {
		return nil
	}
	c.others = others
	c.tables = make(map[string]*trlTableBuilder, len(others))
	for _, path := range others {
		c.tables[path] = newTRLTableBuilder(len(c.columns))
	}
	return c
}

// Add takes rows the load read, the first file's and those of sources
// that are not input files aside. Their Metadata is read (a TRL run's
// rows are read whole: its logged advantage keeps the loader from picking
// keys, engine.RewardComputer.Pick); ts may be reused once Add returns.
func (c *RowsCheck) Add(ts []scoring.Trajectory) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range ts {
		tr := &ts[i]
		t, ok := c.tables[tr.Source]
		if !ok {
			continue
		}
		t.addRow(tr, c.columns, c.values)
	}
}

// Warning returns the check's warning on the rows added so far, "" for
// none, worked out once: a caller asks it once the load has read the
// inputs, and gets the same again.
//
// TRL's warning: the "read as" line gives the weights that reproduce the
// first file's logged advantage (trlFloatRewardColumns), and a run's
// tables, one per logging step, are all of the run's reward_weights. It
// checks them against each other file's log, on the rows of its groups
// of the usual size (trainRows), each table grouped as the first (cutAs),
// as the line's own weights are found:
// its own weights are fitted (fitWeights, scaledWeights), and the first
// file's disagree when, in the nearest of TRL's settings (nearestDiff),
// they are trlFactorTells times as far from its log as its own at least,
// and beyond what rounding the line's weights to 3 digits may cost
// (trlRoundedNoise): as far as the common factors its log rules out.
// Where either log tells only the weights' ratios, the ratios are
// compared (each under the factor nearest the log). It says which files
// they disagree with, each with its own weights. There is no check when
// the line gives no weights (cfg names the objectives, or the first
// file's plain sum reproduces its log) or there is one file. A file
// whose advantages are all 0 (an evaluation table) tells nothing, nor
// does one of which no row was read.
func (c *RowsCheck) Warning() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.said {
		c.warning, c.said = c.trlWeightsWarning(), true
		c.tables = nil // said: the rows are no longer needed
	}
	return c.warning
}

// With returns warn, a layout's warnings (Warnings, nil for none), with
// the check's warning after them.
func (c *RowsCheck) With(warn func(*engine.Result, []int) []string) func(*engine.Result, []int) []string {
	if c == nil {
		return warn
	}
	return func(res *engine.Result, batches []int) []string {
		var ws []string
		if warn != nil {
			ws = warn(res, batches)
		}
		if w := c.Warning(); w != "" {
			ws = append(ws, w)
		}
		return ws
	}
}

// trlWeightsWarning is Warning's work for TRL's weights (c.mu held).
func (c *RowsCheck) trlWeightsWarning() string {
	var differ []string
	for _, path := range c.others {
		if own, disagree := c.tables[path].cutAs(c.read.runs).weightsDisagree(c.columns, c.read); disagree {
			differ = append(differ, path+"'s being "+own)
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
	if c.read.ratiosOnly {
		weights = "weights' ratios"
	}
	return fmt.Sprintf("the %s read from %s (%s) are not those that the logged advantage of other files tells, %s (the reward weights changed within the run, or the files are of more than one run: no one set of weights is the run's)",
		weights, c.first, trlWeightsText(c.columns, c.read.weights, ", "), strings.Join(named, ", "))
}

// cutAs returns t, its groups the runs of one prompt as read
// (trlTableBuilder), grouped as runs tells the first table's rows were
// when its weights were read (trlReadWeights), as the rewards are unless
// --group-by says otherwise (setup.Config.GroupRuns): its runs cut every
// runs.size rows (cutRuns), by prompt text with size 0 (trlCutRuns).
func (t *trlTable) cutAs(runs trlRuns) *trlTable {
	if runs.size == 0 {
		return t.byPrompt()
	}
	return t.cutRuns(runs.size)
}

// weightsDisagree reports whether the weights of the reward columns read
// from the first file (RowsCheck.Warning) disagree with t's logged
// advantage, and says t's own: "a 4, b 1", in their ratios when its log
// tells only those, or that no weighted sum reproduces it. A
// table whose logged advantages are all 0 agrees. When no weights fit
// t's log, the weights read disagree unless they reproduce every row
// within trlTolerance or the bound of TRL's float32 rounding
// (reproducedWithin).
func (t *trlTable) weightsDisagree(columns []string, read trlWeightsRead) (own string, disagree bool) {
	rows := t.trainRows()
	if !slices.ContainsFunc(rows, func(i int) bool { return math.Abs(t.advantage[i]) > trlTolerance }) {
		return "", false
	}
	// Within that of rounding, the first's agree whatever t's own: those
	// are fitted only for a table that may disagree.
	readFactors := t.factorsFor(read.weights, read.ratiosOnly, rows)
	readDiff := t.nearestDiff(read.weights, readFactors, rows)
	if readDiff <= trlFactorTells*trlRoundedNoise {
		return "", false
	}
	ratios, variant, ok := t.fitWeights(len(columns), rows)
	if !ok {
		return "none in TRL's settings (no weighted sum of the rewards reproduces its log)", !t.reproducedWithin(read.weights, readFactors, rows)
	}
	weights, ratiosOnly := t.scaledWeights(len(columns), ratios, variant, rows)
	own = trlWeightsText(columns, weights, ", ")
	if ratiosOnly {
		own = "in the ratios " + trlWeightsText(columns, weights, " : ")
	}
	ownDiff := t.nearestDiff(weights, t.factorsFor(weights, ratiosOnly, rows), rows)
	if ratiosOnly && !read.ratiosOnly {
		readDiff = t.nearestDiff(read.weights, t.factorsFor(read.weights, true, rows), rows)
	}
	return own, readDiff > trlFactorTells*max(ownDiff, trlRoundedNoise)
}

// reproducedWithin reports whether weights, times their factor in a
// setting of trlVariants (factors, factorsFor), reproduce every row of
// rows in that setting, within trlTolerance or the bound of TRL's float32
// rounding (reproducesRows).
func (t *trlTable) reproducedWithin(weights, factors []float64, rows []int) bool {
	k := len(weights)
	for i, v := range trlVariants {
		w := make([]float64, k)
		for j := range w {
			w[j] = factors[i] * weights[j]
		}
		if t.reproducesRows(k, v, w, rows) {
			return true
		}
	}
	return false
}

// nearestDiff returns the largest |difference| over rows between the
// logged advantage and TRL's with weights, the weights of the reward
// columns times their factor in each setting of trlVariants (factors,
// factorsFor), in the setting where it is smallest.
func (t *trlTable) nearestDiff(weights, factors []float64, rows []int) float64 {
	nearest := math.Inf(1)
	for i, v := range trlVariants {
		nearest = min(nearest, t.weightedMaxDiff(len(weights), v, factors[i], weights, rows))
	}
	return nearest
}

// factorsFor returns, for each setting of trlVariants, the factor the
// weights are taken times: 1, or with ratiosOnly (the log telling only
// their ratios) in a setting that scales, the factor nearest the log over
// rows (nearestFactor).
func (t *trlTable) factorsFor(weights []float64, ratiosOnly bool, rows []int) []float64 {
	factors := make([]float64, len(trlVariants))
	for i, v := range trlVariants {
		factors[i] = 1
		if ratiosOnly && !v.unscaled() {
			factors[i] = nearestFactor(func(c float64) float64 { return t.weightedMaxDiff(len(weights), v, c, weights, rows) })
		}
	}
	return factors
}
