package cmd

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
)

// maxReasonsShown is how many skip reasons the CLI prints.
const maxReasonsShown = 5

// prepared is what compute and stats share: the computer built for the
// inputs, the evaluation of their trajectories and their IDs. The
// trajectories themselves are not kept.
type prepared struct {
	computer *engine.RewardComputer
	inferred string // the objectives inferred, to say (newComputer)
	ev       *engine.Evaluation
	ids      idList
	// rowCap is what --max-rows did to the reading: the last group read
	// may lack members (agreement.CutGroupOf).
	rowCap scoring.RowCap
	// stillWritten names the steps the run is probably still writing,
	// with why (loaders.StillWritten): their health findings are
	// provisional (health.Config.Provisional).
	stillWritten map[int64]string
	// duplicates delivers the warning about repeated IDs ("" if none),
	// worked out while the rewards are computed.
	duplicates <-chan string
	// invalidAt says where the first trajectory invalid for each cause
	// was read (scoring.Trajectory.Where): the counts alone leave a user
	// searching a file for the bad cell.
	invalidAt map[string]string
	// overflowAt says where the first row whose finite objectives give a
	// weighted score that overflows (engine.ScoreOverflowCause, in float64
	// or float32) was read, by cause, and its index: the rewards find
	// those rows once the trajectories are gone.
	overflowAt map[string]locatedRow
	// fields are the field names of each input's first trajectory, for
	// the suggestions of an objective that reads none of them.
	fields fieldNames
	// cfg is the config the computer was built for, its layout's defaults
	// applied.
	cfg setup.Config
	// check is what result found checking the trainer's output
	// (agreement.CheckTrainer).
	check agreement.TrainerCheck
	// rowsCheck checks the rows read against what the layout read of the
	// first file (layouts.RowsCheck); result says its warning.
	rowsCheck *layouts.RowsCheck
	// sessions finds a verl V1 dump's sessions of more than one output
	// in the rows read (layouts.VerlSessions); result says its warning.
	sessions *layouts.VerlSessions
	// columns are each trajectory's prompt and task metric, when the
	// command asked for them (prepareColumns); filter is DAPO's group
	// filter, when --filter-groups names an objective.
	columns *promptColumns
	filter  *prompts.Filtered
	// needsTask says that a task metric no trajectory has is an error
	// even when it is the default (the first objective): prompts, whose
	// output is about it, sets it; stats then leaves out what it says.
	needsTask bool
	// file is the --config file (settings.file), whose values' errors
	// are said at their line.
	file *configFile
}

// fieldNames collects the field names of some trajectories, sorted,
// without repeats.
type fieldNames []string

// locatedRow is a trajectory's index and where it was read.
type locatedRow struct {
	index int
	where string
}

func (f *fieldNames) add(t *scoring.Trajectory) {
	*f = append(*f, scoring.FieldNames(t)...)
	slices.Sort(*f)
	*f = slices.Compact(*f)
}

// idList holds the trajectories' IDs in one array of bytes, which the
// garbage collector need not look into, rather than as a million strings.
type idList struct {
	text []byte
	ends []int // ID i is text[ends[i-1]:ends[i]]
}

func (l *idList) add(id string) {
	l.text = append(l.text, id...)
	l.ends = append(l.ends, len(l.text))
}

// len returns the number of IDs.
func (l *idList) len() int { return len(l.ends) }

// at returns ID i, valid until the next add.
func (l *idList) at(i int) []byte {
	start := 0
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.text[start:l.ends[i]]
}

// result applies the computer's options to the evaluation (with
// --match-logged, those that reproduce the logged advantage), then warns
// on stderr about repeated IDs, the batches that are mostly invalid, the
// rows that differ from the logged advantage, the groups of unequal size
// or of more than one prompt in a trainer's layout, records without a
// group (layouts.UngroupedWarning) and what the layout warns of
// (layouts.Warnings).
// When no trajectory is valid it fails with invalid.NoValid's error (exit
// status 2): every reward would be a neutral 0, nothing to write; so it
// does when the logged advantage is misnamed (checkLoggedField).
func (p *prepared) result(stderr io.Writer) (*engine.Result, error) {
	p.check = agreement.CheckTrainer(p.computer, p.ev)
	res := p.ev.Compute(p.check.Options)
	if w := <-p.duplicates; w != "" {
		fmt.Fprintln(stderr, w)
	}
	if err := invalid.NoValid(res, p.computer.Scorer, p.fields); err != nil {
		return nil, p.file.noValidAt(err)
	}
	if err := checkLoggedField(p.computer.Logged, res.Evaluation, p.fields); err != nil {
		return nil, err
	}
	for _, w := range []string{agreement.NotNumberWarning(res.Evaluation), agreement.NonFiniteWarning(res.Evaluation)} {
		if w != "" {
			fmt.Fprintf(stderr, "rewardlens: warning: %s\n", textsafe.Line(w))
		}
	}
	if err := p.columns.check(p.fields, p.file); err != nil {
		if p.needsTask || p.cfg.TaskMetric != "" {
			return nil, err
		}
		fmt.Fprintf(stderr, "rewardlens: warning: %s: the prompts' statuses and the dead signal are left out\n", textsafe.Line(err.Error()))
		p.columns = nil
	}
	if p.columns != nil {
		if w := agreement.MixedPromptsWarning(res.Evaluation, p.columns.Keys.Of, p.cfg); w != "" {
			fmt.Fprintf(stderr, "rewardlens: warning: %s\n", textsafe.Line(w))
		}
	}
	if err := p.filterGroups(res); err != nil {
		return nil, err
	}
	if w := layouts.UngroupedWarning(res, p.fields); w != "" {
		fmt.Fprintf(stderr, "rewardlens: warning: %s\n", textsafe.Line(w))
	}
	reportMostlyInvalid(stderr, invalid.MostlyBatches(res))
	if w := res.Evaluation.InfeasibleWarning(); w != "" {
		fmt.Fprintf(stderr, "rewardlens: warning: %s\n", textsafe.Line(w))
	}
	for _, note := range agreement.CutGroupNotes(p.check, res, agreement.CutGroupOf(res, p.rowCap)) {
		fmt.Fprintf(stderr, "rewardlens: %s\n", noteLine(note.Text, note.Warning))
	}
	if warn := p.sessions.With(p.rowsCheck.With(layouts.Warnings(p.cfg, p.rowCap, p.computer.LinesLeftOut))); warn != nil {
		for _, w := range warn(res, allBatches(res)) {
			fmt.Fprintf(stderr, "rewardlens: warning: %s\n", textsafe.Line(w))
		}
	}
	return res, nil
}

// noteLine is a note of the trainer's check as stderr says it,
// sanitised: "warning: " before a warning's text.
func noteLine(text string, warning bool) string {
	if warning {
		return "warning: " + textsafe.Line(text)
	}
	return textsafe.Line(text)
}

// maxBatchesShown is how many mostly invalid batches the CLI names.
const maxBatchesShown = 5

// reportMostlyInvalid warns, on stderr, of the batches more than half of
// whose trajectories are invalid: probably not what training meant.
func reportMostlyInvalid(w io.Writer, batches []invalid.Batch) {
	for _, b := range batches[:min(len(batches), maxBatchesShown)] {
		fmt.Fprintf(w, "rewardlens: warning: %s\n", textsafe.Line(b.String()))
	}
	if n := len(batches) - maxBatchesShown; n > 0 {
		fmt.Fprintf(w, "rewardlens: warning: and %d more %s with more than half of the trajectories invalid\n", n, english.Plural(n, "step"))
	}
}

// prepare checks the settings (compiling every expression before any data
// is read), then reads the inputs, building the computer on the first
// trajectory and evaluating the trajectories as they come: only the
// evaluation and the IDs stay in memory, not every trajectory's metadata
// and response. The errors are those of loading everything first: a bad
// input wins over a computer that cannot be built.
func prepare(cmd *cobra.Command, s *settings, args []string, stdio IO) (*prepared, error) {
	return prepareInputs(cmd, s, args, stdio, false)
}

// prepareColumns is prepare that also reads each trajectory's prompt and
// task metric (prepared.columns), for the prompts' analysis and the dead
// signal.
func prepareColumns(cmd *cobra.Command, s *settings, args []string, stdio IO) (*prepared, error) {
	return prepareInputs(cmd, s, args, stdio, true)
}

func prepareInputs(cmd *cobra.Command, s *settings, args []string, stdio IO, columns bool) (*prepared, error) {
	if len(args) == 0 {
		return nil, usagef("no input files (give FILE... or - for standard input)")
	}
	cfg, opts, layout, rowsCheck, err := s.resolve(cmd.Context(), cmd.Flags(), nil, args, stdinOf(stdio), nil)
	if err != nil {
		return nil, err
	}
	s.sayWarnings(stdio.Stderr)
	sayLayout(stdio.Stderr, layout, cfg)
	var (
		p          = prepared{cfg: cfg, file: s.file, rowsCheck: rowsCheck, sessions: layouts.NewVerlSessions(cfg)}
		columnsErr error
		evaluator  *engine.Evaluator
		cerr       error
		inputBytes int64 // the size of the input files, 0 if unknown
		// promptsChecked says the prompt columns' settings were checked
		// (newPromptColumns), on the first trajectory.
		promptsChecked bool
	)
	opts.Progress = func(_, total int64) { inputBytes = total }
	// The computer is built on the first trajectory, which may name the
	// objectives, when the loader asks what to pick: when the scorer reads
	// a few metadata keys and nothing else, the loader picks those keys
	// instead of building a metadata map per trajectory.
	opts.Pick = func(first *scoring.Trajectory) *scoring.Pick {
		p.fields.add(first)
		if p.computer == nil && cerr == nil {
			p.computer, p.inferred, cerr = newComputer(cfg, first, s.file)
		}
		if cerr != nil {
			return nil
		}
		if !promptsChecked {
			// A command that reads no prompt columns (compute) checks
			// their settings all the same, with stats' errors: a bad
			// value is never passed over because unused.
			promptsChecked = true
			c, err := newPromptColumns(cfg, p.computer.Scorer.Objectives(), s.file)
			if err != nil {
				cerr = err
				return nil
			}
			if columns {
				p.columns = c
			}
		}
		if p.columns.readsRecords() {
			return nil // the expressions read the whole record
		}
		return p.computer.Pick()
	}
	var weights scoring.ScoreWeights
	lastStep := map[string]int64{} // the step of each file's last row read
	data, err := loaders.Stream(args, opts, checkedEach(rowsCheck, p.sessions, func(ts []scoring.Trajectory) error {
		if cerr != nil {
			return nil // read on: an input error comes first
		}
		if evaluator == nil {
			evaluator = p.computer.NewEvaluator()
			weights = scoring.NewScoreWeights(p.computer.Scorer.Objectives())
			p.reserve(evaluator, loaders.ExpectedCount(inputBytes, ts), ts, inputBytes)
		}
		evaluator.Add(ts)
		loaders.NoteLastSteps(lastStep, ts)
		rows := evaluator.Evaluation()
		causes := rows.Causes[len(rows.Causes)-len(ts):]
		for i := range ts {
			p.ids.add(ts[i].ID)
			if causes[i] == "" {
				p.noteOverflow(weights, rows, p.ids.len()-1, &ts[i])
			}
			if c := causes[i]; c != "" {
				if _, seen := p.invalidAt[c]; !seen {
					if p.invalidAt == nil {
						p.invalidAt = map[string]string{}
					}
					p.invalidAt[c] = ts[i].Where()
				}
			}
		}
		if columnsErr == nil {
			columnsErr = p.columns.add(ts)
		}
		return nil
	}))
	if err != nil {
		return nil, inputError{err}
	}
	sayInferred(stdio.Stderr, p.inferred)
	reportSkipped(stdio.Stderr, data)
	reportUnfinished(stdio.Stderr, data.Unfinished)
	cut := loaders.LastLinesLeftOut(data.Unfinished)
	p.stillWritten = loaders.StillWritten(cut, lastStep)
	if p.computer != nil {
		p.computer.LinesLeftOut = loaders.LinesLeftOut(cut, lastStep)
	}
	reportRelogged(stdio.Stderr, data.Relogged)
	for _, u := range data.Unterminated {
		fmt.Fprintf(stdio.Stderr, "rewardlens: warning: %s\n", textsafe.Line(u.String()))
	}
	if data.Capped {
		fmt.Fprintln(stdio.Stderr, "rewardlens: warning: "+data.CappedWarning(opts.MaxRows, cfg.SourceBy != ""))
		p.rowCap = data.RowCap()
		if p.computer != nil {
			p.computer.RowCap = p.rowCap
		}
	}
	if cerr != nil {
		return nil, cerr
	}
	if columnsErr != nil {
		return nil, inputError{columnsErr}
	}
	p.duplicates = duplicateWarning(&p.ids)
	if err := cmd.Context().Err(); err != nil {
		return nil, err // interrupted while evaluating: write nothing
	}
	p.ev = evaluator.Evaluation()
	p.columns.finish(p.ev)
	return &p, nil
}

// reserve makes room in the evaluator and the ID list for the n
// trajectories expected in inputBytes of input, ts being the first: arrays
// grown as they fill would be copied over and over, into fresh memory each
// time, which costs a tenth of the whole run on 100k trajectories.
//
// The estimate comes from the first records, which one long record skews
// (a 4 MB ID on the second line of two): so n is at most maxReserveGrowth
// times len(ts), and the IDs' room, their mean length so far times n, at
// most inputBytes, which holds every ID read from the input. Past the
// room, the arrays grow as they fill.
func (p *prepared) reserve(e *engine.Evaluator, n int, ts []scoring.Trajectory, inputBytes int64) {
	n = min(n, len(ts)*maxReserveGrowth)
	if n <= len(ts) {
		return
	}
	idBytes := 0
	for i := range ts {
		idBytes += len(ts[i].ID)
	}
	e.Reserve(n)
	text := int64(idBytes) / int64(len(ts)) * int64(n) * 21 / 20
	p.ids.text = slices.Grow(p.ids.text, int(min(text, inputBytes)))
	p.ids.ends = slices.Grow(p.ids.ends, n)
}

// maxReserveGrowth bounds reserve's estimate: a first chunk of 8,192
// trajectories reserves for up to two million.
const maxReserveGrowth = 256

// sayLayout says on stderr how the inputs are read, when they are in a
// trainer's layout (layouts.Apply), and the method cfg computes with.
func sayLayout(w io.Writer, layout string, cfg setup.Config) {
	switch {
	case layout == "":
	case !layouts.IsTrainer(cfg.From): // plain records, with a note
		fmt.Fprintf(w, "rewardlens: %s\n", textsafe.Line(layout))
	default:
		fmt.Fprintf(w, "rewardlens: %s; %s\n", textsafe.Line(layout), textsafe.Line(methodSentence(cfg)))
	}
}

// reportSkipped tells, on stderr, how many lines --skip-invalid-lines
// skipped and the first reasons.
func reportSkipped(w io.Writer, data *loaders.Result) {
	if data.Skipped == 0 {
		return
	}
	fmt.Fprintf(w, "rewardlens: skipped %d invalid %s\n", data.Skipped, english.Plural(data.Skipped, "line"))
	for _, e := range data.SkipReasons[:min(len(data.SkipReasons), maxReasonsShown)] {
		fmt.Fprintf(w, "  %s\n", textsafe.Line(e.Error()))
	}
	if data.Skipped > maxReasonsShown {
		fmt.Fprintf(w, "  ... and %d more\n", data.Skipped-maxReasonsShown)
	}
}

// healthReading is what the reading tells the health checks
// (healthFlags.report): what --max-rows did to it, the steps still being
// written and the trainer whose run it is, by its layout.
func (p *prepared) healthReading() health.Config {
	return health.Config{RowCap: p.rowCap, Provisional: p.stillWritten, Trainer: engine.Trainer(p.cfg.From)}
}

// reportUnfinished warns, on stderr, of the newest files of directories
// read in part or not at all as their run is still writing them.
func reportUnfinished(w io.Writer, files []loaders.Unfinished) {
	for _, u := range files {
		fmt.Fprintf(w, "rewardlens: warning: %s\n", textsafe.Line(u.String()))
	}
}

// noteOverflow keeps where row i, valid, read as t, was read when its
// weighted score overflows in float64 or float32 (overflowAt), the first
// such row of each cause. A finite float32 sum rules out both (a float64
// sum overflows only by a term beyond float32's range), which is all most
// rows cost.
func (p *prepared) noteOverflow(weights scoring.ScoreWeights, ev *engine.Evaluation, i int, t *scoring.Trajectory) {
	row := ev.Row(i)
	if scoring.Finite(weights.Score32(row)) == nil {
		return
	}
	for _, sum := range []struct {
		score float64
		in32  bool
	}{{weights.Score(row), false}, {weights.Score32(row), true}} {
		err := scoring.Finite(sum.score)
		if err == nil {
			continue
		}
		c := engine.ScoreOverflowCause(err, sum.in32)
		if _, seen := p.overflowAt[c]; seen {
			continue
		}
		if p.overflowAt == nil {
			p.overflowAt = map[string]locatedRow{}
		}
		p.overflowAt[c] = locatedRow{i, t.Where()}
	}
}

// invalidWhere returns where the first trajectory of each of ev's invalid
// causes was read (invalidAt), and for a cause found after the reading
// (an infinite weighted score), where that trajectory was read when the
// reading saw it overflow (overflowAt), else that trajectory by its ID.
func (p *prepared) invalidWhere(ev *engine.Evaluation) map[string]string {
	if len(ev.Causes) != p.ids.len() {
		return p.invalidAt
	}
	var where map[string]string
	for i, c := range ev.Causes {
		if _, ok := p.invalidAt[c]; ok || c == "" {
			continue
		}
		if _, ok := where[c]; ok {
			continue
		}
		if where == nil {
			where = maps.Clone(p.invalidAt)
			if where == nil {
				where = map[string]string{}
			}
		}
		// The weights the reading used may not be the rewards' (--match-logged).
		if at, ok := p.overflowAt[c]; ok && at.index == i {
			where[c] = at.where
			continue
		}
		where[c] = fmt.Sprintf("trajectory %q", p.ids.at(i))
	}
	if where == nil {
		return p.invalidAt
	}
	return where
}

// reportInvalid tells, on stderr, how many trajectories are invalid and
// why (describeCounts): they are in the output with a neutral reward,
// never dropped.
func reportInvalid(w io.Writer, counts map[string]int, at map[string]string, reason func(cause string) string) {
	total := 0
	for _, n := range counts {
		total += n
	}
	if total == 0 {
		return
	}
	fmt.Fprintf(w, "rewardlens: %d invalid %s (neutral reward, rank -1): %s\n",
		total, english.Plural(total, "trajectory"), describeCounts(counts, at, reason))
}

// describeCounts lists counts per cause, most frequent first, as the
// dashboard does ("accuracy: missing ×3"), each with where its first
// trajectory was read when at says, and why its expression failed
// there, or what its value that is not a number was, when reason (nil:
// none) says (Evaluation.EvalReason): "length: evaluation error ×10
// (first at run.jsonl:2004: invalid operation: string / int)".
func describeCounts(counts map[string]int, at map[string]string, reason func(cause string) string) string {
	causes := causesByCount(counts)
	parts := make([]string, len(causes))
	for i, c := range causes {
		parts[i] = fmt.Sprintf("%s ×%d", textsafe.Line(c), counts[c])
		why := ""
		if reason != nil {
			why = textsafe.Line(reason(c))
		}
		where, ok := at[c]
		switch {
		case ok && why != "":
			parts[i] += " (first at " + textsafe.Line(where) + ": " + why + ")"
		case ok:
			parts[i] += " (first at " + textsafe.Line(where) + ")"
		case why != "":
			parts[i] += " (the first: " + why + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// causesByCount returns the causes of counts, most frequent first, then
// in byte order: the order of describeCounts and of stats' JSON
// invalid_causes.
func causesByCount(counts map[string]int) []string {
	return slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
}

// reportRelogged warns on w of the inputs left out as repeating the one
// read before them (loaders.RelogWarning), if any.
func reportRelogged(w io.Writer, relogged []loaders.Relogged) {
	if r := loaders.RelogWarning(relogged); r != "" {
		fmt.Fprintf(w, "rewardlens: warning: %s\n", textsafe.Line(r))
	}
}
