package layouts

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/loaders"
)

// trlRewardColumns returns the reward columns of the TRL completions table
// first, and what the "read as" line says of the float columns it leaves
// out ("" when it takes them all) and of the reward columns null in every
// record read: trlFloatRewardColumns, a column null in the first record
// being of floats as trlNullColumns decides. weights is what it read of
// the reward columns' weights.
func trlRewardColumns(first loaders.FileFields) (rewards []string, note string, weights trlWeightsRead, err error) {
	first, allNull, read := trlNullColumns(first)
	rewards, note, weights, err = trlFloatRewardColumns(first)
	var none []string
	for _, col := range allNull {
		if slices.Contains(rewards, col) {
			none = append(none, col)
		}
	}
	if len(none) > 0 {
		if note != "" {
			note += ", "
		}
		note += fmt.Sprintf("%s null in every record read of %s (%d %s): a reward function that returned None for each (adding nothing)", strings.Join(none, ", "), sourceOf(first), read, english.Plural(read, "record"))
	}
	return rewards, note, weights, err
}

// trlFloatRewardColumns returns the reward columns of the TRL completions
// table first, what the "read as" line says of the float columns it
// leaves out ("" when it takes them all), and what it read of their
// weights (trlReadWeights; none without a column order).
//
// TRL >= 1.0 writes the reward functions' columns right after completion,
// then the log_extra columns, then advantage (log(): **rewards, **extra),
// with nothing else to tell them apart: both are named by the user (a
// reward function's __name__, a log_extra key) and a log_extra column
// may hold floats. So the float columns after a column of another type
// are log_extra's; among the float columns that follow completion, the
// rewards are the first k, k being found with the logged advantage over
// TRL's settings (trlTable.rewardCount). Without a logged advantage the
// leading floats are all rewards. A file without TRL's column order
// (trlColumnOrder) has all its float columns but advantage and step as
// rewards.
func trlFloatRewardColumns(first loaders.FileFields) (rewards []string, note string, read trlWeightsRead, err error) {
	lead, after := trlLeadingFloats(first)
	if !trlColumnOrder(first) {
		for _, col := range first.Floats {
			if !trlOwnColumns[col] {
				rewards = append(rewards, col)
			}
		}
		return rewards, "", read, nil
	}
	read, err = trlReadWeights(first, lead)
	if err != nil {
		return nil, "", read, err
	}
	count, weights, ratiosOnly := read.count, read.weights, read.ratiosOnly
	k := count.k
	extras := append(slices.Clone(lead[k:]), after...)
	source := sourceOf(first)
	var notes []string
	switch {
	case read.onePerPrompt:
		notes = append(notes, fmt.Sprintf("rewards = %s, all the float columns after completion: %s, and tells nothing of which columns are rewards (a log_extra column of floats among them counts as a reward: name the rewards with --objective NAME=NAME)", strings.Join(lead, ", "), trlOnePerPromptNote(source)))
	case count.every:
		notes = append(notes, fmt.Sprintf("rewards = %s, all the float columns after completion: no row of %s tells which of them are rewards, the first ones of them reproducing its logged advantage alike (a log_extra column of floats among them counts as a reward: name the rewards with --objective NAME=NAME)", strings.Join(lead, ", "), source))
	case count.weighted && k < len(lead):
		notes = append(notes, fmt.Sprintf("rewards = the first %d float columns, %s reproduces the logged advantage; log_extra columns %s left out", k, trlWeightedSum(lead[:k], weights, ratiosOnly), strings.Join(extras, ", ")))
	case count.weighted:
		notes = append(notes, fmt.Sprintf("rewards = %s, all the float columns after completion, %s reproduces the logged advantage of %s", strings.Join(lead, ", "), trlWeightedSum(lead, weights, ratiosOnly), source))
	case count.unknown && count.float32Coarse:
		notes = append(notes, fmt.Sprintf("rewards = %s, all the float columns after completion: their weights could not be read from the logged advantage of %s, TRL's float32 error at this scale (its float32 sums of scores far from 0 with a small spread lose digits) being as large as what a wrong weight changes; computing with weight 1 each, the defaults (pass the trainer's reward_weights with --weight NAME=W)", strings.Join(lead, ", "), source))
		notes = append(notes, trlLogExtraWarning(lead)...)
	case count.unknown:
		notes = append(notes, fmt.Sprintf("rewards = %s, all the float columns after completion: no sum of the first ones of them, weighted or not, reproduces the logged advantage of %s in TRL's settings (%d of its %d rows differ, at the fewest, with weight 1): the reward weights are unknown, or the advantage holds what the table does not log, --match-logged fits weights", strings.Join(lead, ", "), source, count.differ, count.rows))
		notes = append(notes, trlLogExtraWarning(lead)...)
	case k < len(lead):
		notes = append(notes, fmt.Sprintf("rewards = the first %d float columns, whose sum reproduces the logged advantage; log_extra columns %s left out", k, strings.Join(extras, ", ")))
	case len(extras) > 0:
		notes = append(notes, fmt.Sprintf("log_extra columns %s left out (they follow a column that is not a float)", strings.Join(extras, ", ")))
	}
	if count.kmin < count.kmax && !count.every {
		notes = append(notes, trlEitherWarning(count, lead, source))
	}
	return lead[:k], strings.Join(notes, ", "), read, nil
}

// trlLogExtraWarning warns, when the weights of the leading float
// columns lead were not read, that those after the first, taken as
// rewards, could be log_extra columns; none for one column.
func trlLogExtraWarning(lead []string) []string {
	if len(lead) < 2 {
		return nil
	}
	return []string{fmt.Sprintf("warning: %s, taken as rewards, could be log_extra columns (of floats, which nothing in the table tells from a reward's; one counts even for a row whose rewards are all None): name the rewards with --objective NAME=NAME", strings.Join(lead[1:], ", "))}
}

// trlColumnOrder reports whether first's Columns are in the order TRL's
// log() writes them: known, with completion among them and no float
// column before it but TRL's own (step). A JSONL file whose keys a writer
// sorted (jq -S, a Go map) puts the rewards before completion: its order
// tells nothing.
func trlColumnOrder(first loaders.FileFields) bool {
	at := slices.Index(first.Columns, trlCompletion)
	if at < 0 {
		return false
	}
	for _, col := range first.Columns[:at] {
		if _, float := slices.BinarySearch(first.Floats, col); float && !trlOwnColumns[col] {
			return false
		}
	}
	return true
}

// trlWeightsRead is what trlReadWeights found of the reward columns of
// a TRL table: their count, and when their weighted sum reproduces the
// log, the weights (scaledWeights) and whether the log tells only their
// ratios.
type trlWeightsRead struct {
	count      trlRewardCount
	weights    []float64
	ratiosOnly bool
	// onePerPrompt says every prompt of the table has one row: a table
	// logged with log_unique_prompts=True, whose logged advantage TRL
	// computed over rows it does not hold, so that it tells nothing.
	onePerPrompt bool
	// runs is how the table's rows were grouped (trlCutRuns): size 0
	// when the table was not read or holds no run of one prompt.
	runs trlRuns
	// read says the table was read, runs being what it tells.
	read bool
}

// trlReadWeights reads which of the leading float columns lead of the
// TRL table first are rewards (trlTable.rewardCount) and, when a weighted
// sum of them reproduces the log, the weights, and how the table's rows
// were grouped (trlCutRuns). Without a logged advantage, with one column,
// or with one row per prompt (onePerPrompt), every leading column is a
// reward, unweighted.
func trlReadWeights(first loaders.FileFields, lead []string) (trlWeightsRead, error) {
	read := trlWeightsRead{count: trlRewardCount{k: len(lead)}}
	if len(lead) == 0 || !slices.Contains(first.Columns, trlAdvantage) {
		return read, nil
	}
	runs, err := readTRLTable(first, lead)
	if err != nil {
		return read, err
	}
	read.read = true
	table, how, count := trlCutRuns(runs, len(lead))
	read.runs = how
	read.onePerPrompt = table.onePerPrompt()
	if len(lead) == 1 || read.onePerPrompt {
		return read, nil
	}
	read.count = count
	if read.count.weighted {
		read.weights, read.ratiosOnly = table.scaledWeights(read.count.k, read.count.weights, read.count.variant, table.trainRows())
	}
	return read, nil
}

// onePerPrompt reports whether every prompt of t has one row (and t has
// rows): a table logged with log_unique_prompts=True.
func (t *trlTable) onePerPrompt() bool {
	return len(t.groups) > 0 && !slices.ContainsFunc(t.groups, func(rows []int) bool { return len(rows) > 1 })
}

// trlOnePerPromptNote says why the logged advantage of the table source,
// of one row per prompt, is not compared.
func trlOnePerPromptNote(source string) string {
	return fmt.Sprintf("every prompt of %s has one row, probably a table logged with log_unique_prompts=True (one row kept per prompt), whose logged advantage TRL computed over the num_generations rows of each prompt, not in the table: it is not compared", source)
}

// trlEitherWarning says which columns count may read as rewards or as
// log_extra columns alike (those between the smallest and the largest k
// that reproduce the log), how it read them, and the --objective flags
// that read them the other way.
func trlEitherWarning(count trlRewardCount, lead []string, source string) string {
	either := lead[count.kmin:count.kmax]
	what, subject, changes, reward := "a reward or a log_extra column", "it", "it changes", "a reward"
	if len(either) > 1 {
		what, subject, changes, reward = "rewards or log_extra columns", "them", "they change", "rewards"
	}
	read := "read as log_extra, being constant within each prompt but not across them: a reward of the prompt alone gives GRPO no signal, and TRL writes the rewards' columns before log_extra's"
	other, otherWay := lead[:count.kmax], "to take "+subject+" as "+reward
	if count.k == count.kmax {
		read = "read as " + reward + ", being constant in every row read, as a reward can be early in a run"
		other, otherWay = lead[:count.kmin], "to leave "+subject+" out"
	}
	objectives := make([]string, len(other))
	for i, col := range other {
		objectives[i] = "--objective " + col + "=" + col
	}
	return fmt.Sprintf("warning: %s could be %s: the logged advantage of %s is reproduced with or without %s (constant within each prompt, %s no advantage); %s; %s, give %s",
		strings.Join(either, ", "), what, source, subject, changes, read, otherWay, strings.Join(objectives, " "))
}

// trlNullColumns returns first with the columns null in its first record
// (Nulls, TRL's own columns aside) that are numbers among its Floats,
// those of them null in every record read, and how many it read. TRL writes each reward
// function's column as floats, NaN for None (log(): **rewards), which
// pandas' to_json writes null: a column is of floats when its first value
// that is not null, in the first records of the file (firstRecords), is a
// number; and when it is null in all of them, as a reward function that
// returned None for each completion writes it (a log_extra column of
// None only is taken for one too: it adds nothing to a reward).
func trlNullColumns(first loaders.FileFields) (loaders.FileFields, []string, int) {
	nulls := slices.DeleteFunc(slices.Clone(first.Nulls), func(col string) bool { return trlOwnColumns[col] })
	if len(nulls) == 0 {
		return first, nil, 0
	}
	// A file that cannot be read leaves them floats, as TRL writes a
	// reward's column: the load itself says what is wrong with it.
	records := newFirstRecords(first).records()
	first.Floats = slices.Clone(first.Floats)
	var allNull []string
	for _, col := range nulls {
		var value any
		for i := 0; i < len(records) && value == nil; i++ {
			value = records[i].Metadata[col]
		}
		if _, isFloat := value.(float64); isFloat || value == nil {
			first.Floats = append(first.Floats, col)
		}
		if value == nil && len(records) > 0 {
			allNull = append(allNull, col)
		}
	}
	slices.Sort(first.Floats)
	return first, allNull, len(records)
}

// trlOwnColumns are the columns of the completions table that TRL writes
// itself, none a reward (GRPOTrainer.log and RLOOTrainer.log: step,
// prompt, completion, advantage; image beside them when
// log_multimodal): every other column is a reward function's or a
// log_extra one.
var trlOwnColumns = map[string]bool{stepField: true, trlPrompt: true, trlCompletion: true, trlAdvantage: true, "image": true}

// trlLeadingFloats returns the float columns that follow completion
// without a column of another type between (TRL's own columns aside),
// and the float columns after those. A column of integers (a W&B table's
// Integers) is of another type: TRL logs each reward as a float
// (rewards_per_func.tolist()), so it is a log_extra column, and so are
// those after it.
func trlLeadingFloats(first loaders.FileFields) (lead, after []string) {
	start := slices.Index(first.Columns, trlCompletion) + 1
	inLead := true
	for _, col := range first.Columns[start:] {
		if trlOwnColumns[col] {
			continue
		}
		_, float := slices.BinarySearch(first.Floats, col)
		float = float && !slices.Contains(first.Integers, col)
		switch {
		case float && inLead:
			lead = append(lead, col)
		case float:
			after = append(after, col)
		default:
			inLead = false
		}
	}
	return lead, after
}

// trlTable is what trlTable.reproduced reads of a TRL completions table: the
// rows of each group (the runs of one prompt as read, trlTableBuilder;
// cut as TRL grouped them, trlCutRuns), each candidate column (NaN for
// None) and the logged advantage.
type trlTable struct {
	groups    [][]int
	groupOf   []int
	columns   [][]float64
	advantage []float64
	// prompts holds each row's prompt.
	prompts []string
	// opensStep says of each group whether it is its step's first: the
	// runs of one prompt as read (trlTableBuilder) have it, for cutRuns.
	opensStep []bool
	// usual is usualGroupSize, 0 until asked; the table is whole by then.
	usual int
	// coarseFloat32 says a recomputed advantage beyond trlTolerance was
	// within a coarse float32 bound, not taken as reproducing the log
	// (withinFloat32).
	coarseFloat32 bool
}

// readTRLTable reads the table of the file first, in the format Peek
// read; of standard input, the first records read (Records).
func readTRLTable(first loaders.FileFields, columns []string) (*trlTable, error) {
	rows := first.Records
	if first.Path != "-" {
		data, err := loadTRLTable([]string{first.Path}, loaders.Options{Format: first.Format})
		if err != nil {
			return nil, err
		}
		rows = data.Trajectories
	}
	return trlTableOf(rows, columns), nil
}

// loadTRLTable is loaders.Load, which a test counts the calls of.
var loadTRLTable = loaders.Load

// trlTableOf is the table of rows, a TRL completions table's records, of
// its reward columns columns.
func trlTableOf(rows []scoring.Trajectory, columns []string) *trlTable {
	t := newTRLTableBuilder(len(columns))
	values := make([]float64, len(columns))
	for i := range rows {
		t.addRow(&rows[i], columns, values)
	}
	return &t.trlTable
}

// trlTableBuilder makes a trlTable a row at a time. Its groups are the
// runs of one prompt (trlTable.runs): a row joins the group of the row
// before it when of the same step and prompt, and starts a group
// otherwise.
type trlTableBuilder struct {
	trlTable
	lastPrompt string
	lastStep   uint64 // the bits of the step's floatOrNaN
}

// newTRLTableBuilder returns the builder of a table of k reward columns.
func newTRLTableBuilder(k int) *trlTableBuilder {
	return &trlTableBuilder{trlTable: trlTable{columns: make([][]float64, k)}}
}

// add appends the row of step and prompt, its reward columns' values
// (NaN for None) and its logged advantage.
func (t *trlTableBuilder) add(step float64, prompt string, values []float64, advantage float64) {
	i := len(t.advantage)
	if len(t.groups) == 0 || prompt != t.lastPrompt || math.Float64bits(step) != t.lastStep {
		t.opensStep = append(t.opensStep, len(t.groups) == 0 || math.Float64bits(step) != t.lastStep)
		t.groups = append(t.groups, nil)
		t.lastPrompt, t.lastStep = strings.Clone(prompt), math.Float64bits(step) // the loader may reuse the text's memory
	}
	g := len(t.groups) - 1
	t.groups[g] = append(t.groups[g], i)
	t.groupOf = append(t.groupOf, g)
	for k, v := range values {
		t.columns[k] = append(t.columns[k], v)
	}
	t.advantage = append(t.advantage, advantage)
	t.prompts = append(t.prompts, t.lastPrompt)
}

func floatOrNaN(v any) float64 {
	if x, ok := v.(float64); ok {
		return x
	}
	return math.NaN()
}

// trlVariant is one of TRL's ways from rewards to advantages
// (_generate_and_score_completions): GRPOTrainer's scale_rewards group,
// batch or none with sum_then_normalize, or normalize_then_sum;
// RLOOTrainer's leave-one-out baseline, with normalize_advantages or not
// (its beta 0: a KL penalty makes the rewards those of no column).
type trlVariant struct {
	scale            string
	normalizeThenSum bool
	rloo             bool
	normalizeRLOO    bool
}

var trlVariants = []trlVariant{{scale: "group"}, {scale: "batch"}, {scale: "none"}, {normalizeThenSum: true}, {rloo: true}, {rloo: true, normalizeRLOO: true}}

// trlTolerance is how far a recomputed advantage may be from the logged
// one and still reproduce it: TRL computes in float32.
const trlTolerance = 1e-4

// trlRewardCount is what rewardCount found of the reward columns.
type trlRewardCount struct {
	// k is how many of the leading float columns are rewards.
	k int
	// kmin and kmax are the smallest and the largest k that reproduce
	// every row with weight 1 (0 when none does); every, that each k
	// does (no row tells them apart) and k took them all.
	kmin, kmax int
	every      bool
	// weighted says that no k reproduces the log with weight 1 but the
	// first k weighted do, with weights (the first reward's 1).
	weighted bool
	weights  []float64
	variant  int // the index in trlVariants of the first setting the weights fit
	// unknown says that no k reproduces the log, weighted or not: differ
	// of the rows compared (rows) differ with weight 1, under the k and
	// the setting that leaves the fewest.
	unknown      bool
	differ, rows int
	// float32Coarse, when unknown, says some weights' advantages were
	// within a coarse float32 bound (trlTable.withinFloat32): TRL's
	// float32 error at the table's scale is as large as what a wrong
	// weight changes, so the log cannot tell the weights.
	float32Coarse bool
}

// rewardCount returns how many of the first lead columns are rewards,
// from the rows of the table's groups of the commonest size (trainRows:
// evaluation rows and a group the deque cut are grouped otherwise by
// TRL), each with a finite logged advantage.
//
// A k reproduces the log when its columns' sum, weight 1 each, gives
// every such row's logged advantage in one of TRL's settings
// (reproducedRows). A column constant within each prompt changes no
// advantage, so several k may: the evidence is then ambiguous, and the
// column order decides what it can (_generate_and_score_completions
// extends _logs["rewards"] before _logs["extra"], and log() writes them
// in that order: after one log_extra column all are). From the smallest such k, each next column is taken as a reward
// unless it varies between the prompts (constant within each, not
// across them: a value of the prompt, which as a reward would give GRPO
// no signal, is read as log_extra, and so are the columns after it). A
// column constant throughout, as a reward can be early in a run, stays
// a reward. When no k reproduces with weight 1, the first k whose
// weighted sum does (fitWeights: TRL's reward_weights) is taken; when
// none does, every leading column is a reward, the weights unknown.
func (t *trlTable) rewardCount(lead int) trlRewardCount {
	rows := t.trainRows()
	var c trlRewardCount
	c.rows = len(rows)
	if !slices.ContainsFunc(rows, func(i int) bool { return math.Abs(t.advantage[i]) > trlTolerance }) {
		// Every advantage 0 (each group's weighted sum ties) is reproduced
		// by any k whose sum is constant in each group: none tells.
		return trlRewardCount{k: lead, kmin: 1, kmax: lead, every: true, rows: len(rows)}
	}
	c.differ = len(rows)
	for n := 1; n <= lead; n++ {
		reproduced := t.reproducedRows(n, rows)
		differ := 0
		for _, i := range rows {
			if !reproduced[i] {
				differ++
			}
		}
		c.differ = min(c.differ, differ)
		if differ == 0 {
			c.kmin = cmp.Or(c.kmin, n)
			c.kmax = n
		}
	}
	if c.kmin > 0 {
		c.k = c.kmin
		for c.k < c.kmax && !t.promptValue(c.k, rows) {
			c.k++
		}
		c.every = c.kmin == 1 && c.kmax == lead && c.k == lead
		if t.allNaN(c.kmin, c.kmax, rows) {
			c.kmin = c.kmax // null throughout: trlRewardColumns says so
		}
		return c
	}
	for n := 1; n <= lead; n++ {
		if w, v, ok := t.fitWeights(n, rows); ok {
			c.k, c.weighted, c.weights, c.variant = n, true, w, v
			return c
		}
	}
	c.k, c.unknown, c.float32Coarse = lead, true, t.coarseFloat32
	return c
}

// promptValue reports whether column col is constant within each group
// of rows but not across them (NaN counting as a value of its own).
func (t *trlTable) promptValue(col int, rows []int) bool {
	x := t.columns[col]
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	groupValue := map[int]float64{}
	varies := false
	var firstValue float64
	for n, i := range rows {
		g := t.groupOf[i]
		v, seen := groupValue[g]
		switch {
		case !seen:
			groupValue[g] = x[i]
		case !same(v, x[i]):
			return false
		}
		if n == 0 {
			firstValue = x[i]
		} else if !same(firstValue, x[i]) {
			varies = true
		}
	}
	return varies
}

// allNaN reports whether columns from to to (not included) are NaN in
// every row of rows.
func (t *trlTable) allNaN(from, to int, rows []int) bool {
	for _, col := range t.columns[from:to] {
		for _, i := range rows {
			if !math.IsNaN(col[i]) {
				return false
			}
		}
	}
	return true
}

// trainRows returns the rows of the groups of the usual size, those with
// a finite logged advantage: the usual size is the commonest (the smaller
// on a tie) among the groups that start in the first half of the rows,
// as trlGroupWarnings takes it (evaluation rows come last, and the first
// group may be cut by the deque).
func (t *trlTable) trainRows() []int {
	size := t.trainSize()
	var rows []int
	for _, g := range t.groups {
		if len(g) != size {
			continue
		}
		for _, i := range g {
			if !math.IsNaN(t.advantage[i]) && !math.IsInf(t.advantage[i], 0) {
				rows = append(rows, i)
			}
		}
	}
	slices.Sort(rows)
	return rows
}

// trainSize is the usual size of trainRows: the commonest size (the
// smaller on a tie) of the groups that start in the first half of the
// rows, 0 without rows.
func (t *trlTable) trainSize() int {
	count := map[int]int{}
	for _, g := range t.groups {
		if 2*g[0] < len(t.advantage) {
			count[len(g)]++
		}
	}
	size := 0
	for n, c := range count {
		if c > count[size] || c == count[size] && n < size {
			size = n
		}
	}
	return size
}

// reproducedRows returns, for each row, whether the first k columns
// reproduce its logged advantage, weight 1 each, under the variant of
// trlVariants that reproduces the most of rows (the first on a tie): the
// rows judged (trainRows), not those TRL grouped otherwise (evaluation
// rows, a group the deque cut), which may favour another variant.
func (t *trlTable) reproducedRows(k int, rows []int) []bool {
	var best []bool
	bestN := -1
	for _, v := range trlVariants {
		reproduced := make([]bool, len(t.advantage))
		within := t.reproduces(k, v, nil)
		for i, a := range t.advantages(k, v, nil) {
			reproduced[i] = within(i, a)
		}
		n := 0
		for _, i := range rows {
			if reproduced[i] {
				n++
			}
		}
		if n > bestN {
			best, bestN = reproduced, n
		}
	}
	return best
}

// advantages returns TRL's advantages of the rows with the first k
// columns as rewards, weighted by weights (1 each when nil), under v, in float64 (grpo_trainer.py lines
// 2676-2730, rloo_trainer.py lines 1515-1561): a row whose every reward is
// NaN (None) is left out of the means, stds and baselines and gets 0.
//
// sum_then_normalize: r = nansum_k w_k c_k, A = r - nanmean_group(r), divided
// by nanstd(r) + 1e-4 over the group (scale group) or the table (batch).
// normalize_then_sum: z_k = (c_k - nanmean_group) / (nanstd_group + 1e-4),
// r = nansum_k w_k z_k, A = (r - nanmean(r)) / (nanstd(r) + 1e-4) over the
// table. rloo: A = r - (nansum_group(r) - r) / (n - 1), n the group's
// non-NaN rewards, then with normalize_advantages (A - nanmean(A)) /
// (nanstd(A) + 1e-4) over the table. nanstd is the sample std of the
// non-NaN values (NaN for fewer than two), and a NaN advantage becomes 0
// (nan_to_num). Under sum_then_normalize a group whose sums tie in
// float32 gets the advantages it logged when they are that tie's float32
// residue (tieResidue).
func (t *trlTable) advantages(k int, v trlVariant, weights []float64) []float64 {
	n := len(t.advantage)
	weight := func(j int) float64 {
		if weights == nil {
			return 1
		}
		return weights[j]
	}
	r := t.weightedSums(k, weight)
	a := make([]float64, n)
	switch {
	case v.rloo:
		for _, g := range t.groups {
			sum, count := 0.0, 0
			for _, i := range g {
				if !math.IsNaN(r[i]) {
					sum += r[i]
					count++
				}
			}
			for _, i := range g {
				// A lone scorable reward divides 0 by 0: NaN, then 0.
				a[i] = r[i] - (sum-r[i])/float64(count-1)
			}
		}
		if v.normalizeRLOO {
			mean, std := nanMeanStd(a, nil)
			for i := range a {
				a[i] = (a[i] - mean) / (std + 1e-4)
			}
			t.batchResidue(a, std, func(g []int) float64 { return t.rlooTieBound(g, r) })
		}
	case v.normalizeThenSum:
		sum := make([]float64, n)
		for i := range sum {
			if math.IsNaN(r[i]) {
				sum[i] = math.NaN()
			}
		}
		for j, col := range t.columns[:k] {
			for _, g := range t.groups {
				mean, std := nanMeanStd(col, g)
				for _, i := range g {
					if z := (col[i] - mean) / (std + 1e-4); !math.IsNaN(z) && !math.IsNaN(sum[i]) {
						sum[i] += weight(j) * z
					}
				}
			}
		}
		mean, std := nanMeanStd(sum, nil)
		for i := range a {
			a[i] = (sum[i] - mean) / (std + 1e-4)
		}
		t.batchResidue(a, std, func(g []int) float64 { return t.normalizeThenSumTieBound(g, k, weight) })
	default:
		_, batchStd := nanMeanStd(r, nil)
		tie := agreement.TieGroup{Usual: t.usualGroupSize()} // tieResidue's, reused
		for _, g := range t.groups {
			mean, std := nanMeanStd(r, g)
			if v.scale == "batch" {
				std = batchStd
			}
			for _, i := range g {
				a[i] = r[i] - mean
				if v.scale != "none" {
					a[i] /= std + 1e-4
				}
			}
			t.tieResidue(g, r, v, a, &tie)
		}
	}
	for i, x := range a {
		if math.IsNaN(x) {
			a[i] = 0
		}
	}
	return a
}

// tieResidue gives the rows of group g the advantage they logged when
// their sums r tie in float32 (TRL sums in float32: two sums equal there
// are one value to it) and the log holds the float32 residue of that tie
// (agreement.TieGroup.Residue, the group of the table's usual size
// tie.Usual): TRL's advantage of the tie is 0 but for the order torch
// sums in, which nothing here reproduces. A row of no reward (r NaN) is
// left out of TRL's mean as of the tie. tie's slices are reused.
func (t *trlTable) tieResidue(g []int, r []float64, v trlVariant, a []float64, tie *agreement.TieGroup) {
	divisor := 1e-4
	if v.scale == "none" {
		divisor = 1
	}
	tie.Size, tie.Scores, tie.Logged = len(g), tie.Scores[:0], tie.Logged[:0]
	for _, i := range g {
		if math.IsNaN(r[i]) {
			continue
		}
		tie.Scores = append(tie.Scores, float64(float32(r[i])))
		if l := t.advantage[i]; !math.IsNaN(l) && !math.IsInf(l, 0) {
			tie.Logged = append(tie.Logged, l)
		}
	}
	if !tie.Residue(divisor) {
		return
	}
	for _, i := range g {
		if l := t.advantage[i]; !math.IsNaN(r[i]) && !math.IsNaN(l) && !math.IsInf(l, 0) {
			a[i] = l
		}
	}
}

// weightedSums returns each row's nansum of the first k columns times
// weight(j), NaN for a row of no reward (every one None).
func (t *trlTable) weightedSums(k int, weight func(j int) float64) []float64 {
	r := make([]float64, len(t.advantage))
	for i := range r {
		r[i] = math.NaN()
		for j, col := range t.columns[:k] {
			if x := col[i]; !math.IsNaN(x) {
				r[i] = nanAdd(r[i], weight(j)*x)
			}
		}
	}
	return r
}

// batchResidue gives every row of t that TRL normalised (a not NaN) the
// advantage it logged when the differences of a, advantages normalised
// over the table (std the std they were divided by, less 1e-4), from the
// log are TRL's float32 residue of the tied groups
// (agreement.BatchResidue), bound(g) bounding group g's: every group of
// the table's usual size, every row TRL normalised with a logged value.
// The rows TRL left out keep a's NaN: the residue checked nothing of
// them.
func (t *trlTable) batchResidue(a []float64, std float64, bound func(g []int) float64) {
	beyond := false
	for i, x := range a {
		beyond = beyond || agreement.BeyondReproduces(x, t.advantage[i])
	}
	if !beyond {
		return // nothing for the residue to explain
	}
	usual := t.usualGroupSize()
	ties := make([]agreement.BatchTie, 0, len(t.groups))
	var logged []float64
	for _, g := range t.groups {
		if len(g) != usual {
			return
		}
		tie := agreement.BatchTie{Bound: bound(g)}
		for _, i := range g {
			if math.IsNaN(a[i]) {
				continue // no reward, or a lone one under RLOO: TRL's NaN, then 0
			}
			l := t.advantage[i]
			if math.IsNaN(l) || math.IsInf(l, 0) {
				return
			}
			tie.Diff = append(tie.Diff, l-a[i])
			logged = append(logged, l)
		}
		ties = append(ties, tie)
	}
	_, loggedStd := nanMeanStd(logged, nil)
	divisor, ok := agreement.BatchDivisor(std/(std+1e-4), loggedStd, 1e-4)
	if math.IsNaN(std) || !ok || !agreement.BatchResidue(ties, divisor) {
		return
	}
	for i, x := range a {
		if !math.IsNaN(x) {
			a[i] = t.advantage[i]
		}
	}
}

// normalizeThenSumTieBound is agreement.BatchTie.Bound of group g under
// normalize_then_sum with the first k columns as rewards, weighted:
// over each column whose two or more non-NaN values in g tie in float32,
// agreement.TieResidueBound(count + 2, weight times the value, 1e-4)
// (agreement.BatchTie.Bound).
func (t *trlTable) normalizeThenSumTieBound(g []int, k int, weight func(j int) float64) float64 {
	bound := 0.0
	for j, col := range t.columns[:k] {
		count, x, tie := 0, math.NaN(), true
		for _, i := range g {
			v := col[i]
			if math.IsNaN(v) {
				continue
			}
			if count > 0 && float32(v) != float32(x) {
				tie = false
				break
			}
			x = v
			count++
		}
		if tie && count >= 2 {
			bound += agreement.TieResidueBound(count+2, weight(j)*float64(float32(x)), 1e-4)
		}
	}
	return bound
}

// rlooTieBound is agreement.BatchTie.Bound of group g under
// RLOOTrainer: agreement.TieResidueBound(n, x, 1) when its n >= 2 sums r
// not NaN tie in float32 at x, its leave-one-out baseline off by the
// rounding of their sum; 0 otherwise.
func (t *trlTable) rlooTieBound(g []int, r []float64) float64 {
	count, x := 0, math.NaN()
	for _, i := range g {
		if math.IsNaN(r[i]) {
			continue
		}
		if count > 0 && float32(r[i]) != float32(x) {
			return 0
		}
		x = r[i]
		count++
	}
	if count < 2 {
		return 0
	}
	return agreement.TieResidueBound(count, float64(float32(x)), 1)
}

// usualGroupSize is the most common size of t's groups
// (agreement.UsualGroupSize), counted once: advantages asks it on every
// call, which the searches for weights make by the hundred.
func (t *trlTable) usualGroupSize() int {
	if t.usual == 0 {
		t.usual = agreement.UsualGroupSize(len(t.groups), func(j int) int { return len(t.groups[j]) })
	}
	return t.usual
}

// nanAdd adds x to s, s being NaN for nothing added yet.
func nanAdd(s, x float64) float64 {
	if math.IsNaN(s) {
		return x
	}
	return s + x
}

// nanMeanStd returns the mean and the sample std of the non-NaN x[i], i in
// rows (all of x when rows is nil): TRL's nanmean and nanstd, the std NaN
// for fewer than two values.
func nanMeanStd(x []float64, rows []int) (mean, std float64) {
	var vals []float64
	add := func(v float64) {
		if !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if rows == nil {
		for _, v := range x {
			add(v)
		}
	} else {
		for _, i := range rows {
			add(x[i])
		}
	}
	if len(vals) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range vals {
		mean += v
	}
	mean /= float64(len(vals))
	if len(vals) < 2 {
		return mean, math.NaN()
	}
	ss := 0.0
	for _, v := range vals {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(vals)-1))
}

// addRow adds the record tr of a TRL completions table, values being
// scratch for its reward columns columns.
func (t *trlTableBuilder) addRow(tr *scoring.Trajectory, columns []string, values []float64) {
	for k, col := range columns {
		values[k] = floatOrNaN(tr.Metadata[col])
	}
	prompt, _ := tr.Metadata[trlPrompt].(string)
	t.add(floatOrNaN(tr.Metadata[stepField]), prompt, values, floatOrNaN(tr.Metadata[trlAdvantage]))
}
