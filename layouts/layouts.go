// Package layouts recognises what the trainers (verl, TRL, open-instruct)
// write, by the fields of each file's first record, and gives the
// defaults that reproduce each trainer's numbers (--from; the table
// trainerLayouts, one file per trainer).
package layouts

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/suggest"
	"github.com/rewardlens/rewardlens/loaders"
)

// A trainerLayout is how one trainer writes its rollouts, which --from
// names (or auto recognises by the fields of each file's first record):
// the defaults that reproduce that trainer's numbers, which every flag and
// config key overrides. Adding a trainer is one file with its layout and
// one entry in trainerLayouts.
type trainerLayout struct {
	// name is the value of --from, its trainer's identifier
	// (engine.Trainer), by which the trainer agreement tries that
	// trainer's settings alone.
	name string
	// description names a file of the layout in messages ("a verl
	// rollout dump"); sentenceName names the inputs in the "read as"
	// line ("verl rollout dumps").
	description, sentenceName string
	// fields are the fields a first record must have to be of the layout;
	// messages also list grouping, the field check asks for besides.
	fields   []string
	grouping string
	// method is the trainer's reward method, which the layout's defaults
	// reproduce with its settings: used unless --method or the config
	// names one.
	method engine.Method
	// prompt and response name the fields that hold the prompt's and the
	// completion's text, which the dashboard shows.
	prompt, response string
	// promptBy is the expression of the prompt a record answers, which
	// the prompts' analysis follows across steps (--prompt-by), when the
	// first record has that field: the trainer's group may change every
	// step (verl's uid). "" keeps the group. The "read as" line says
	// "prompt = …" when the prompt is not the group, with promptWhy (why
	// the layout's own group is not the prompt) unless --group-by is given.
	promptBy, promptWhy string
	// groupKeyNote, for a layout without a prompt's text (prompt ""),
	// says what a value of its grouping field is, which the dashboard's
	// group view shows in the prompt's place (setup.Config.GroupKeyNote);
	// "" for none.
	groupKeyNote string
	// check, when set, refuses a file of the layout that cannot be read
	// as the trainer meant (cfg is as the user gave it).
	check func(cfg setup.Config, f loaders.FileFields) error
	// defaults returns cfg with the layout's defaults where cfg sets
	// nothing, first being the first input file's fields (standard
	// input's, Path "-", when it is the only input that holds a record;
	// empty for empty files, not followed: the load refuses them), what
	// the "read as" line says besides cfg's settings ("" for nothing),
	// and the check of the other files' rows against what they read of
	// first (RowsCheck, nil for none).
	defaults func(cfg setup.Config, first loaders.FileFields) (setup.Config, string, *RowsCheck, error)
	// firstStep, when set, says what the defaults read of the first
	// file's first step beyond its first record ("open-instruct's
	// advantage normalisation and pass threshold"): following, Apply
	// waits until that step is whole (Awaiting.wholeStep), lest they be
	// read from the few records of a step caught as it is written.
	firstStep string
	// filesWarning, when set, returns a warning of what the input files
	// say together by their names (open-instruct's shards of several
	// runs), "" for none; the "read as" line ends with it.
	filesWarning func(files []loaders.FileFields) string
	// filesCheck, when set, refuses input files that are of the layout
	// one by one and are not one run's together (verl's validation dump
	// beside its training dump), whatever their order.
	filesCheck func(files []loaders.FileFields) error
	// warnings, when set, returns what the result shows, in the batches
	// of index batches, that the trainer did otherwise or that contradicts
	// a default read from the first records (stderr, the dashboard's status
	// line); cfg is the config the layout's defaults were applied to,
	// rowCap what --max-rows did to the reading (the group it cut is not
	// the trainer's doing), linesLeftOut the unfinished last line of a
	// file still being written left out after each step's last row read
	// (engine.RewardComputer.LinesLeftOut: that step's last group may be
	// short, not by the trainer's doing either).
	warnings func(cfg setup.Config, res *engine.Result, rowCap scoring.RowCap, linesLeftOut map[int64]string, batches []int) []string
	// runNote, when set, is a note of the whole run (open-instruct's
	// filtered traces): Warnings appends it, StepWarnings leaves it to
	// the follower, which asks each batch once, and to the dashboard,
	// which judges the run once (RunNoteOf).
	runNote *runNote
	// relogField, when set, is the field the trainer changes alone when
	// it logs one generation's rows again under a new step: the inputs
	// that repeat the one before are left out (loaders.Options.RelogField).
	relogField string
	// warningsRead returns the options warnings reads, the others zero:
	// two results of one evaluation whose options it maps to equal ones
	// (engine.Options.Equal) have the same warnings, which the dashboard
	// then does not ask again (a method switch, n).
	warningsRead func(o engine.Options) engine.Options
}

// trainerLayouts lists the trainers' layouts in the order auto tries them:
// the first whose fields a file has is its layout.
var trainerLayouts = []*trainerLayout{&trlLayout, &verlLayout, &openInstructLayout}

const (
	layoutAuto  = "auto"
	layoutPlain = "plain"
	stepField   = "step" // the step field, which every trainer here writes
)

// Names lists the values of --from.
func Names() []string {
	names := []string{layoutAuto}
	for _, l := range trainerLayouts {
		names = append(names, l.name)
	}
	return append(names, layoutPlain)
}

// CheckFrom returns the error of from, a layout's name that what (the
// flag or the config key) sets, when it names none: "unknown WHAT "x";
// did you mean y? (valid: ...)"; nil for a layout's name or "".
func CheckFrom(what, from string) error {
	if from == "" {
		return nil
	}
	_, err := suggest.Parse(what, from, Names())
	return err
}

// findLayout returns the trainer layout called name (nil for auto, plain
// or an unknown name).
func findLayout(name string) *trainerLayout {
	for _, l := range trainerLayouts {
		if l.name == name {
			return l
		}
	}
	return nil
}

// IsTrainer reports whether from, a value of --from, names a trainer's
// layout (not auto nor plain).
func IsTrainer(from string) bool { return findLayout(from) != nil }

// fieldList lists the fields a file of l has, for messages.
func (l *trainerLayout) fieldList() string {
	names := slices.Clone(l.fields)
	if l.grouping != "" {
		names = append(names, l.grouping)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// recognise returns the layout of a file by its first record's fields:
// the first trainer layout whose fields it has, plain otherwise and
// whenever the record has a group of its own (no trainer writes one).
func recognise(f loaders.FileFields) string {
	if f.Group != "" {
		return layoutPlain
	}
	for _, l := range trainerLayouts {
		if hasAll(f.Names, l.fields) {
			return l.name
		}
	}
	return layoutPlain
}

func hasAll(names, want []string) bool {
	for _, w := range want {
		if _, found := slices.BinarySearch(names, w); !found {
			return false
		}
	}
	return true
}

// describeLayout names a layout in messages.
func describeLayout(layout string) string {
	if l := findLayout(layout); l != nil {
		return l.description
	}
	return "plain rewardlens records"
}

// Apply returns cfg with the defaults of the layout of the inputs
// (cfg.From: auto, the default, recognises it from each file's first
// record), and the sentence that says what was decided ("" for plain
// records). Files of different layouts, a file that is not of the layout
// --from names, and a file its layout's check refuses are errors.
// Standard input beside files of a trainer's layout is one more of them
// (checkStdinBeside); beside plain records it is not recognised (WithStdin
// warns): with auto, it is plain records; so are empty files, unless following (await not nil):
// auto then waits until a file holds a record (Awaiting), and so does a
// --from that names a trainer, whose defaults are taken from the first
// file's fields as when it was there at the start. A --from that names a
// trainer takes its defaults from stdin, standard input's first records
// as PeekStdin read them, when no file is there to take them from, as
// from a file's (its check included): what they read of the records
// (TRL's reward columns, verl's uid, open-instruct's normalisation) no
// default can say. Standard input alone without a record there (nil:
// none within its peek) is an
// error. cfg.From must be "" or one of Names. Every error is about the
// inputs, but ctx's. The RowsCheck returned, nil for none, checks the
// rows of the inputs' load against what the defaults read of the first
// file (TRL's weights): the caller adds the rows read to it and says its
// warning once they are read.
func Apply(ctx context.Context, cfg setup.Config, paths []string, opts loaders.Options, stdin *loaders.FileFields, await *Awaiting) (setup.Config, string, *RowsCheck, error) {
	from := cfg.From
	if from == "" {
		from = layoutAuto
	}
	if from == layoutPlain || len(paths) == 0 {
		return cfg, "", nil, nil
	}
	opts.Context = ctx
	var files []loaders.FileFields
	var err error
	if await != nil {
		files, err = await.record(ctx, paths, opts)
	} else {
		files, err = loaders.Peek(paths, opts)
	}
	if err != nil {
		return cfg, "", nil, err
	}
	if len(files) == 0 { // standard input, or empty files not followed
		if l := stdinTrainer(paths, stdin); from == layoutAuto && l != nil {
			from = l.name // PeekStdin read its first peekRows records
		}
		if from == layoutAuto {
			return cfg, "", nil, nil // an empty file is the load's error
		}
		l := findLayout(from)
		if stdin == nil && onlyStdin(paths) {
			// The defaults of no record would read the data otherwise
			// than the trainer did (TRL's logged advantage as a reward,
			// verl's V1 dump grouped by input).
			why := fmt.Sprintf("standard input: no record within its first %d MiB to take the defaults of --from %s from", loaders.MaxStdinPeek>>20, from)
			return cfg, "", nil, fmt.Errorf("%s (%s): give the file's path", why, l.fieldList())
		}
		if stdin == nil {
			cfg, sentence, _, err := layoutDefaults(cfg, l, loaders.FileFields{})
			return cfg, sentence, nil, err
		}
		if got := recognise(*stdin); got != from {
			return cfg, "", nil, fmt.Errorf("standard input: not %s (--from %s): its first record has %s, %s has %s",
				describeLayout(from), from, fieldList(stdin.Names), describeLayout(from), l.fieldList())
		}
		if l.check != nil {
			if err := l.check(cfg, *stdin); err != nil {
				return cfg, "", nil, err
			}
		}
		cfg, sentence, _, err := layoutDefaults(cfg, l, *stdin)
		return cfg, sentence, nil, err
	}
	layout := from
	for _, f := range files {
		got := recognise(f)
		switch {
		case from == layoutAuto && got != recognise(files[0]):
			return cfg, "", nil, fmt.Errorf("mixed layouts: %s is %s, %s is %s: give the files of one run (or --from plain)",
				files[0].Path, describeLayout(recognise(files[0])), f.Path, describeLayout(got))
		case from != layoutAuto && got != from:
			return cfg, "", nil, fmt.Errorf("%s: not %s (--from %s): it has %s, %s has %s",
				f.Path, describeLayout(from), from, fieldList(f.Names), describeLayout(from), findLayout(from).fieldList())
		}
		layout = got
		if l := findLayout(got); l != nil && l.check != nil {
			if err := l.check(cfg, f); err != nil {
				return cfg, "", nil, err
			}
		}
	}
	l := findLayout(layout)
	if l == nil {
		return cfg, "", nil, nil
	}
	if err := checkStdinBeside(cfg, from, files[0], stdin); err != nil {
		return cfg, "", nil, err
	}
	if l.filesCheck != nil {
		checked := files
		if stdin != nil { // one more file of the run
			checked = append(slices.Clip(files), *stdin)
		}
		if err := l.filesCheck(checked); err != nil {
			return cfg, "", nil, err
		}
	}
	if await != nil && l.firstStep != "" && !laterStepFile(files) {
		if err := await.wholeStep(ctx, files[0], l.firstStep); err != nil {
			return cfg, "", nil, err
		}
	}
	cfg, sentence, check, err := layoutDefaults(cfg, l, files[0])
	if err != nil {
		return cfg, "", nil, err
	}
	if l.filesWarning != nil {
		if w := l.filesWarning(files); w != "" {
			sentence += "; warning: " + w
		}
	}
	others := make([]string, len(files)-1)
	for i, f := range files[1:] {
		others[i] = f.Path
	}
	return cfg, sentence, check.checkOthers(others), nil
}

// checkStdinBeside checks standard input's first record, stdin (nil when
// none was read), beside files of a trainer's layout, first the first of
// them: one config reads every input, so standard input is one more file
// of the run, of its layout (as --from names it, or as auto recognised
// it in first) and passing its check, else the error a file would give.
func checkStdinBeside(cfg setup.Config, from string, first loaders.FileFields, stdin *loaders.FileFields) error {
	if stdin == nil {
		return nil
	}
	layout := recognise(first)
	switch got := recognise(*stdin); {
	case from == layoutAuto && got != layout:
		return fmt.Errorf("mixed layouts: %s is %s, standard input is %s: give the files of one run (or --from plain)",
			first.Path, describeLayout(layout), describeLayout(got))
	case got != layout:
		return fmt.Errorf("standard input: not %s (--from %s): its first record has %s, %s has %s",
			describeLayout(from), from, fieldList(stdin.Names), describeLayout(from), findLayout(from).fieldList())
	}
	if l := findLayout(layout); l.check != nil {
		return l.check(cfg, *stdin)
	}
	return nil
}

// fieldList lists names for messages, "no field" when there are none.
func fieldList(names []string) string {
	if len(names) == 0 {
		return "no field"
	}
	return "fields " + strings.Join(names, ", ")
}

// layoutDefaults returns cfg with l's defaults, From naming l, the
// sentence that says how the inputs are read, and the check of the
// other files' rows its defaults made (trainerLayout.defaults). Every
// trainer's layout checks that a step's groups are of one size
// (Config.EqualGroups: a trainer's groups are num_generations each),
// unless its defaults say otherwise.
func layoutDefaults(cfg setup.Config, l *trainerLayout, first loaders.FileFields) (setup.Config, string, *RowsCheck, error) {
	cfg.From = l.name
	cfg.EqualGroups = true
	groupGiven := cfg.GroupBy != ""
	cfg, note, check, err := l.defaults(cfg, first)
	if err != nil {
		return cfg, "", nil, err
	}
	cfg.Method = cmp.Or(cfg.Method, string(l.method))
	cfg.PromptField, cfg.ResponseField = l.prompt, l.response
	if !groupGiven {
		cfg.GroupKeyNote = l.groupKeyNote
	}
	promptNote := ""
	if cfg.PromptBy == "" && l.promptBy != "" && (first.Path == "" || slices.Contains(first.Names, l.promptBy)) {
		cfg.PromptBy = l.promptBy
		if cfg.PromptBy != cfg.GroupBy {
			promptNote = "prompt = " + cfg.PromptBy
		}
		if promptNote != "" && !groupGiven && l.promptWhy != "" {
			promptNote += " (" + l.promptWhy + ")"
		}
	}
	sentence := layoutSentence(l.sentenceName, cfg)
	if promptNote != "" {
		sentence += ", " + promptNote
	}
	if note != "" {
		sentence += ", " + note
	}
	return cfg, sentence, check, nil
}

// usesPareto reports whether cfg scores with the pareto scorer (the
// default), the one whose objectives a layout may set.
func usesPareto(cfg setup.Config) bool {
	return cfg.Computer == "" || cfg.Computer == string(setup.ComputerPareto)
}

// layoutSentence says how the inputs are read, for stderr and the
// dashboard's status line: "read as verl rollout dumps: group = input,
// batch = step, objective score". The method and its settings are not
// said here but where they are true (methodSentence): the dashboard
// switches methods.
func layoutSentence(name string, cfg setup.Config) string {
	group := "group = " + cfg.GroupBy
	if cfg.GroupRuns > 0 {
		group += fmt.Sprintf(" (its consecutive rows, %d at most: num_generations)", cfg.GroupRuns)
	}
	parts := []string{group, "batch = " + cfg.BatchBy}
	if n := len(cfg.Objectives); n > 0 {
		names := make([]string, n)
		for i, o := range cfg.Objectives {
			names[i] = o.Name
		}
		noun := "objective "
		if n > 1 {
			noun = "objectives "
		}
		parts = append(parts, noun+strings.Join(names, ", "))
	}
	if cfg.NanSum != nil && *cfg.NanSum {
		parts = append(parts, "a null reward adds nothing")
	}
	if cfg.LoggedAdvantage != "" {
		parts = append(parts, "logged advantage = "+cfg.LoggedAdvantage)
	}
	return "read as " + name + ": " + strings.Join(parts, ", ")
}

// Awaiting is how Apply waits, when following, for inputs that hold no
// record yet (empty files, a directory without input files or whose
// newest file has no complete line yet): a trainer's directory is often
// made before its first dump, and read at once it would be read, for the
// whole run, as plain records (auto) or with the defaults of no file
// (--from a trainer: TRL's advantage column scored as a reward).
type Awaiting struct {
	// Poll is how often the inputs are looked at again.
	Poll time.Duration
	// Waiting is called once, before the wait.
	Waiting func(paths []string)
	// Quiet is how long a file must have gone unmodified for its first
	// step to be taken for whole without a record of the next step
	// (wholeStep).
	Quiet time.Duration
	// WaitingStep is called once, before wholeStep waits, with the file
	// and what the layout reads of its first step (trainerLayout's
	// firstStep).
	WaitingStep func(path, what string)
}

// wholeStep waits, polling every a.Poll, until the first step of first's
// file is whole: its first records hold a record of another step
// (stepWhole, read again whenever the file has grown), or the file has
// not been modified for a.Quiet, or cannot be looked at (the load says
// why); a Parquet file at once, whole once it can be read (its footer,
// which a reader needs, is written last: TRL's log() writes each step's
// table with pandas' to_parquet). It calls a.WaitingStep before it
// waits: a trainer that writes a step's records in one go
// (open-instruct's _save_rollouts, one buffered write a record) can be
// caught with the first few written. It returns ctx's error once ctx is
// done.
func (a *Awaiting) wholeStep(ctx context.Context, first loaders.FileFields, what string) error {
	if first.Format == loaders.Parquet {
		return nil
	}
	ticker := time.NewTicker(a.Poll)
	defer ticker.Stop()
	read := int64(-1) // the size of the file when its records were read
	for said := false; ; said = true {
		info, err := os.Stat(first.Path)
		if err != nil || time.Since(info.ModTime()) >= a.Quiet {
			return nil
		}
		if info.Size() != read {
			read = info.Size()
			if stepWhole(first) {
				return nil
			}
		}
		if !said {
			a.WaitingStep(first.Path, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
}

// laterStepFile reports whether a file after the first opens with a
// record of a step other than the first file's first record's: a trainer
// writes its steps one after another (TRL's log() a table a step,
// open-instruct's shards in turn), so the first step is then whole.
func laterStepFile(files []loaders.FileFields) bool {
	if len(files) < 2 {
		return false
	}
	first, ok := firstRecord(files[0])
	if !ok {
		return false
	}
	for _, f := range files[1:] {
		if r, ok := firstRecord(f); ok && r.Metadata[stepField] != first.Metadata[stepField] {
			return true
		}
	}
	return false
}

// firstRecord returns f's first record (standard input's as
// loaders.PeekStdin kept it), reading no more of the file; false when it
// has none or cannot be read (its load later says why).
func firstRecord(f loaders.FileFields) (scoring.Trajectory, bool) {
	if f.Path == "-" {
		if len(f.Records) == 0 {
			return scoring.Trajectory{}, false
		}
		return f.Records[0], true
	}
	data, err := loaders.Load([]string{f.Path}, loaders.Options{Format: f.Format, SkipInvalid: true, MaxRows: 1})
	if err != nil || len(data.Trajectories) == 0 {
		return scoring.Trajectory{}, false
	}
	return data.Trajectories[0], true
}

// stepWhole reports whether the first peekRows records of first's file
// hold a record of a step other than the first's, or are peekRows (as
// many as a layout's defaults read).
func stepWhole(first loaders.FileFields) bool {
	rows := newFirstRecords(first).records()
	if len(rows) >= peekRows {
		return true
	}
	for i := range rows {
		if rows[i].Metadata[stepField] != rows[0].Metadata[stepField] {
			return true
		}
	}
	return false
}

// record peeks at paths, every a.Poll, until a file holds a record, and
// returns what Peek tells (calling a.Waiting before it waits). Peek's
// error is returned when the next look gives it again and no file named
// ends mid-line: a file's first line caught as its run writes it is not
// complete JSON yet, and a run that does not flush each line may leave it
// so for long. It returns ctx's error once ctx is done.
func (a *Awaiting) record(ctx context.Context, paths []string, opts loaders.Options) ([]loaders.FileFields, error) {
	ticker := time.NewTicker(a.Poll)
	defer ticker.Stop()
	var lastErr error
	said := false
	for {
		// Whether a file ends mid-line is looked at before Peek reads it:
		// looked at after, it could see the line ended since, and take
		// Peek's error of the cut line for the whole line's.
		midLine := loaders.EndsMidLine(paths)
		files, err := loaders.Peek(paths, opts)
		switch {
		case err == nil && len(files) > 0:
			return files, nil
		case err != nil && lastErr != nil && err.Error() == lastErr.Error() && !midLine:
			return nil, err
		case (err == nil || lastErr != nil) && !said:
			a.Waiting(paths)
			said = true
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-ticker.C:
		}
	}
}

// PeekStdin reads standard input's first records when it is among paths
// and a layout looks at them, not following (which standard input cannot
// be): auto, its first, and when that has a trainer's fields and
// standard input is the only input, its first peekRows (Apply recognises
// the trainer and takes the defaults from them, as from a file's; with
// other inputs Apply checks its first against a trainer's files, and
// WithStdin warns of its fields beside plain records); a --from naming a trainer,
// its first peekRows; nil otherwise, or when it holds no record. It
// returns them and the reader that gives standard input whole
// (loaders.PeekStdin when it looked, else opts.Stdin).
func PeekStdin(cfg setup.Config, paths []string, opts loaders.Options) (*loaders.FileFields, io.Reader) {
	if !slices.Contains(paths, "-") {
		return nil, opts.Stdin
	}
	switch l := findLayout(cfg.From); {
	case cfg.From == "" || cfg.From == layoutAuto:
		first, whole := loaders.PeekStdin(opts, 1)
		if stdinTrainer(paths, first) == nil {
			return first, whole
		}
		opts.Stdin = whole
		return loaders.PeekStdin(opts, peekRows)
	case l != nil:
		return loaders.PeekStdin(opts, peekRows)
	}
	return nil, opts.Stdin
}

// WithStdin returns the sentence that says how the inputs are read, with
// a warning when standard input is read as plain records as auto
// recognised no layout (cfg as Apply returned it) and has a first record,
// stdin (PeekStdin's), that recognise takes for a trainer's: standard
// input beside plain records (beside a trainer's files Apply checks it
// is of their layout).
func WithStdin(sentence string, cfg setup.Config, stdin *loaders.FileFields) string {
	if stdin == nil || cfg.From != "" && cfg.From != layoutAuto {
		return sentence
	}
	l := findLayout(recognise(*stdin))
	if l == nil {
		return sentence
	}
	warning := fmt.Sprintf("warning: standard input is read as plain records, though its first record has the fields of %s (%s): give --from %s to read it as one, or --from plain to keep it plain", l.description, l.fieldList(), l.name)
	if sentence == "" {
		return warning
	}
	return sentence + "; " + warning
}

// Warnings returns the warnings of cfg's layout (Apply sets From) on a
// reading that rowCap says --max-rows did or did not stop
// (loaders.Result.RowCap) and that left out linesLeftOut, the unfinished
// last line of a file still being written after each step's last row
// read (engine.RewardComputer.LinesLeftOut; nil for none), nil for plain
// records or a layout that has none.
// The layout's note of the run (runNote) comes last, read of the whole
// result whichever batches are asked: callers ask for every batch.
func Warnings(cfg setup.Config, rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
	l := findLayout(cfg.From)
	if l == nil || l.warnings == nil && l.runNote == nil {
		return nil
	}
	return func(res *engine.Result, batches []int) []string {
		var ws []string
		if l.warnings != nil {
			ws = l.warnings(cfg, res, rowCap, linesLeftOut, batches)
		}
		if l.runNote != nil {
			if w, _ := l.runNote.whole(res); w != "" {
				ws = append(ws, w)
			}
		}
		return ws
	}
}

// StepWarnings is Warnings without the layout's note of the run, for a
// follower's step lines, which ask the note per batch (RunNoteOf), never
// the whole run per line, and for the dashboard, which judges the note
// apart (RunNote.Judge). nil when the layout has no warnings.
func StepWarnings(cfg setup.Config, rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
	if l := findLayout(cfg.From); l != nil && l.warnings != nil {
		return func(res *engine.Result, batches []int) []string {
			return l.warnings(cfg, res, rowCap, linesLeftOut, batches)
		}
	}
	return nil
}

// RunNoteEvidence is what one batch says of a note of the run.
type RunNoteEvidence int

const (
	RunNoteSilent   RunNoteEvidence = iota // the batch says nothing of it
	RunNoteBorneOut                        // the batch bears it out
	RunNoteRefuted                         // the batch refutes it: it is false of the run
)

// runNote is a note of the whole run: it holds when no batch refutes it
// and one bears it out.
type runNote struct {
	text string // what a follower says, without whole's details
	// whole returns the note of the whole result, with its details, ""
	// when it does not hold; and the index of the first batch that
	// refutes it, -1 when none does. One walk of the batches gives both.
	whole func(res *engine.Result) (note string, refutedBy int)
	// of returns what batch bi of res says of the note.
	of func(res *engine.Result, bi int) RunNoteEvidence
	// refuted says why a batch that refutes the note does, after "step
	// S": a follower that said the note withdraws it with it.
	refuted string
}

// RunNote is a layout's note of the whole run (open-instruct's filtered
// traces) as a follower says it: once it first holds, each batch asked
// once (Of); said, it is withdrawn with why (Withdrawal) should a later
// batch refute it, as the run said so far bore it out.
type RunNote struct {
	Text string
	// Of returns what batch bi of res says of the note.
	Of   func(res *engine.Result, bi int) RunNoteEvidence
	note *runNote
}

// RunNoteOf returns the note of the run of cfg's layout, nil for none.
func RunNoteOf(cfg setup.Config) *RunNote {
	if l := findLayout(cfg.From); l != nil && l.runNote != nil {
		return &RunNote{Text: l.runNote.text, Of: l.runNote.of, note: l.runNote}
	}
	return nil
}

// Withdrawal returns the line that withdraws the note, which the batch of
// step refutes: "withdrawn (step S has a group of zero spread:
// filter_zero_std_samples was off): NOTE".
func (n *RunNote) Withdrawal(step int64) string {
	return fmt.Sprintf("withdrawn (step %d %s): %s", step, n.note.refuted, n.Text)
}

// Judge returns the note of the whole run res holds, as Warnings says
// it ("" when it does not hold), and the Withdrawal of the note by the
// first batch of res that refutes it ("" when none does), from one walk
// of the batches.
func (n *RunNote) Judge(res *engine.Result) (note, withdrawal string) {
	note, refutedBy := n.note.whole(res)
	if refutedBy >= 0 {
		withdrawal = n.Withdrawal(res.Ranking.Batches[refutedBy].Step)
	}
	return note, withdrawal
}

// RelogField returns the field of cfg's layout (Apply sets From) that
// its trainer changes alone when it logs one generation's rows again
// (loaders.Options.RelogField), "" for none.
func RelogField(cfg setup.Config) string {
	if l := findLayout(cfg.From); l != nil {
		return l.relogField
	}
	return ""
}

// WarningsRead returns the options the warnings of cfg's layout
// (Warnings) read of a result, the others zero: results of one evaluation
// whose options it maps to equal ones have the same warnings. nil where
// Warnings is.
func WarningsRead(cfg setup.Config) func(engine.Options) engine.Options {
	if l := findLayout(cfg.From); l != nil && (l.warnings != nil || l.runNote != nil) {
		return l.warningsRead
	}
	return nil
}

// readsNoOptions is the warningsRead of warnings that read the result's
// evaluation and batches only: the same whatever the options.
func readsNoOptions(engine.Options) engine.Options { return engine.Options{} }

// readsScopeAndMethod is the warningsRead of warnings that read the
// result's comparison groups (Ranking.Batches' Groups), which the scope
// makes (under scope batch a batch is one group), and its method.
func readsScopeAndMethod(o engine.Options) engine.Options {
	return engine.Options{Scope: o.Scope, Method: o.Method}
}

// MethodDefaultsHelp says, for --method's help, the method each trainer's
// layout uses unless one is named: "trl, verl, open-instruct data:
// grpo".
func MethodDefaultsHelp() string {
	byMethod := map[engine.Method][]string{}
	var methods []engine.Method
	for _, l := range trainerLayouts {
		if byMethod[l.method] == nil {
			methods = append(methods, l.method)
		}
		byMethod[l.method] = append(byMethod[l.method], l.name)
	}
	said := make([]string, len(methods))
	for k, m := range methods {
		said[k] = strings.Join(byMethod[m], ", ") + " data: " + string(m)
	}
	return strings.Join(said, "; ")
}

// PromptDefaultsHelp says, for --prompt-by's help, the prompt each
// trainer's layout follows: "trl's prompt, verl's input, open-instruct's
// prompt_tokens" (a layout that keeps the group left out).
func PromptDefaultsHelp() string {
	var said []string
	for _, l := range trainerLayouts {
		if l.promptBy != "" {
			said = append(said, l.name+"'s "+l.promptBy)
		}
	}
	return strings.Join(said, ", ")
}

// sourceOf names the input first is of in messages: its path, or
// standard input and how many of its first records were read.
func sourceOf(first loaders.FileFields) string {
	if first.Path != "-" {
		return first.Path
	}
	n := len(first.Records)
	return fmt.Sprintf("standard input (its first %d %s)", n, english.Plural(n, "record"))
}

// onlyStdin reports whether paths name standard input alone ("-").
func onlyStdin(paths []string) bool {
	return len(paths) == 1 && paths[0] == "-"
}

// stdinTrainer returns the trainer's layout whose fields the first record
// of standard input, the only input, has; nil otherwise.
func stdinTrainer(paths []string, stdin *loaders.FileFields) *trainerLayout {
	if stdin == nil || !onlyStdin(paths) {
		return nil
	}
	return findLayout(recognise(*stdin))
}
