package cmd

// The lines stats --follow prints, one per batch, and what they say on
// stderr beside them: the loop that computes them is follow.go.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/output"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
)

// printBatches prints the line of every batch not printed yet, or printed
// with fewer trajectories, but the newest one unless withNewest. A batch
// more than half of whose trajectories are invalid gets a warning on
// stderr too. When the first batch is complete and no trajectory read so
// far is valid, it asks why: an objective that reads a field no record
// read so far has is misnamed, and it fails with invalid.NoValid's error
// (exit status 2, "did you mean") rather than follow a run whose every
// reward would be a neutral 0; values that are null, NaN or not numbers
// are the run's own trouble, which later steps may not have: they are
// warned of once, with their causes, and the batches' lines carry the
// invalid_fraction ALERT.
func (f *statsFollower) printBatches(withNewest bool) error {
	if f.res == nil {
		return nil
	}
	n := len(f.res.Ranking.Batches)
	if !withNewest {
		n--
	}
	if n > 0 && !f.fit {
		f.mu.Lock()
		fields := slices.Clone(f.fields)
		f.mu.Unlock()
		err := invalid.NoValid(f.res, f.computer.Scorer, fields)
		var nv *invalid.NoValidError
		if errors.As(err, &nv) {
			err = nv.WithHidden(f.computer.Scorer)
		}
		switch {
		case err == nil:
			f.fit = true
		case misnamed(err):
			return f.file.noValidAt(err)
		case !f.warnedNoValid:
			fmt.Fprintf(f.errOut, "rewardlens: warning: %s; following on\n", textsafe.Line(err.Error()))
			f.warnedNoValid = true
		}
	}
	if n > 0 && !f.loggedChecked {
		// A logged advantage that reads a field no record read so far
		// has is misnamed, as stats finds it.
		f.loggedChecked = true
		f.mu.Lock()
		fields := slices.Clone(f.fields)
		f.mu.Unlock()
		if err := checkLoggedField(f.computer.Logged, f.res.Evaluation, fields); err != nil {
			return err
		}
	}
	// Each once, as the rows read so far have it: the count grows on.
	if w := agreement.NotNumberWarning(f.res.Evaluation); w != "" && !f.warnedLoggedNotNumber {
		f.warnedLoggedNotNumber = true
		fmt.Fprintf(f.errOut, "rewardlens: warning: %s\n", textsafe.Line(w))
	}
	if w := agreement.NonFiniteWarning(f.res.Evaluation); w != "" && !f.warnedLoggedNonFinite {
		f.warnedLoggedNonFinite = true
		fmt.Fprintf(f.errOut, "rewardlens: warning: %s\n", textsafe.Line(w))
	}
	if n > 0 && !f.warnedUngrouped {
		// Once, of the rows read when a batch is first complete: that
		// batch was compared whole, whatever later records have.
		f.warnedUngrouped = true
		f.mu.Lock()
		w := layouts.UngroupedWarning(f.res, f.fields)
		f.mu.Unlock()
		if w != "" {
			fmt.Fprintf(f.errOut, "rewardlens: warning: %s\n", textsafe.Line(w))
		}
	}
	f.sayFloat32Note()
	return f.printLines(n)
}

// sayFloat32Note says on stderr float32CoarseNote of the rows read so
// far, as stats and stats --health say it, each time its text changes
// (its bound grows as rows come): a "healthy" line does not tell the
// settings from slightly wrong ones there.
func (f *statsFollower) sayFloat32Note() {
	note := float32CoarseNote(f.res)
	if note == "" || note == f.float32NoteSaid {
		return
	}
	f.float32NoteSaid = note
	fmt.Fprintf(f.errOut, "rewardlens: %s\n", textsafe.Line(note))
}

// misnamed reports whether err, invalid.NoValid's, blames a field that no
// record read so far has (NoValidCause.Unseen): an objective's name is
// wrong, and no later record will mend it. Any other error counts as
// misnamed too: following cannot tell it will pass.
func misnamed(err error) bool {
	var nv *invalid.NoValidError
	if !errors.As(err, &nv) {
		return true
	}
	for _, c := range nv.Causes {
		if len(c.Unseen) > 0 {
			return true
		}
	}
	return false
}

// printFinal prints every batch's final line, the newest too, before
// files are read again (rotated, truncated, rewritten): without asking
// whether the objectives fit, as the trajectories read again replace
// those of the files (a log rewritten in place with the run's right
// data).
func (f *statsFollower) printFinal() error {
	if f.res == nil {
		return nil
	}
	return f.printLines(len(f.res.Ranking.Batches))
}

// printedLine is what a batch's line said: it is printed again, updated,
// when one of these changes (trajectories came, or its file was read
// again with other data, as many lines as before or not, or a later batch
// started after a partial one).
type printedLine struct {
	trajectories, invalid, frontier int
	mean, std                       uint64 // math.Float64bits: NaN equals NaN
	partial                         bool
}

func lineOf(t *diagnose.Trend, partial bool) printedLine {
	return printedLine{t.Trajectories, t.Invalid, t.FrontierSize, math.Float64bits(t.Reward.Mean), math.Float64bits(t.Reward.Std), partial}
}

// printLines prints the lines of the first n batches not printed yet, or
// printed with other numbers. The newest batch, when among them (the
// quiet timer, the end), may be partial (statsFollower.partial: its file
// ends in an unfinished line, or it is probably read in part): its run is
// probably still writing it, and its findings are provisional
// (health.Config.Provisional, with why), as those of a file still being
// written are to stats --health.
func (f *statsFollower) printLines(n int) error {
	taskDone := false // the task metric completed for this result
	newest := len(f.res.Ranking.Batches) - 1
	for b := range max(n, 0) {
		t := &f.trends[b]
		why := ""
		if b == newest {
			why = f.partial(b)
		}
		partial := why != ""
		line := lineOf(t, partial)
		last, seen := f.printed[t.Step]
		if seen && last == line {
			continue
		}
		// A line printed again only to drop its partial mark (a later
		// step started) is not an update: its numbers are the same.
		unmarked := last
		unmarked.partial = line.partial
		updated := seen && unmarked != line
		f.printed[t.Step] = line
		var dead *diagnose.DeadSignal
		if f.columns != nil {
			if !taskDone {
				// Once per result, and only when a line is printed.
				f.columns.FinishTask(f.res.Evaluation)
				taskDone = true
			}
			d := diagnose.DeadSignalOf(f.res, &f.res.Ranking.Batches[b], f.columns.Task, f.columns.Threshold)
			dead = &d
			if f.cfg.TaskMetric != "" {
				// dead_signal and phantom_signal grade a named task
				// metric only, as stats --health does (healthDeadSignal).
				t.DeadSignal = dead
			}
		}
		if float64(t.Invalid) > invalid.Mostly*float64(t.Trajectories) {
			reportMostlyInvalid(f.errOut, []invalid.Batch{invalid.BatchOf(f.res, &f.res.Ranking.Batches[b])})
		}
		if f.warnings != nil {
			f.sayWarnings(t.Step, f.warnings(f.res, []int{b}), partial)
		}
		f.sayRunNote(t.Step, b)
		logged, agree := f.loggedOf(b)
		// Rows counts the valid rows alone: a step whose logged rows are
		// all invalid is said as such, not as one that logged nothing.
		if logged != nil && logged.Rows == 0 && !f.warnedNoLogged {
			f.warnedNoLogged = true
			none := "no row has a logged advantage"
			if logged.logged > 0 {
				none = "no valid row has a logged advantage"
			}
			fmt.Fprintf(f.errOut, "rewardlens: warning: step %d: %s (a finite number): the rewards are compared with nothing\n", t.Step, none)
		}
		cfg := f.healthCfg
		if partial {
			cfg.Provisional = map[int64]string{t.Step: why}
		}
		findings := health.StepFindings(f.res, f.trends, cfg, b)
		warning := f.agreementStanding(b, agree, partial)
		if partial || warning.hedge != "" {
			// A step read in part differs from the log by its short
			// groups: its agreement is said provisional, not graded.
			findings = slices.DeleteFunc(findings, func(fd health.Finding) bool { return fd.Check == health.CheckTrainerAgreement })
		}
		err := f.printLine(t, findings, dead, logged, agree, warning, updated, why)
		// The findings are those of the lines printed: the step's new ones
		// replace its old; a write that failed (the reader gone, | head)
		// may have left part of the new line read, so both stand.
		if f.lastFindings == nil {
			f.lastFindings = map[int64][]health.Finding{}
		}
		if err == nil {
			f.lastFindings[t.Step] = nil
		}
		f.lastFindings[t.Step] = append(f.lastFindings[t.Step], findings...)
		if f.provisional == nil {
			f.provisional = map[int64]string{}
		}
		f.provisional[t.Step] = why
		if err != nil {
			return err
		}
	}
	return nil
}

// sayWarnings says on stderr the warnings ws of step's line as it is
// printed (f.warnings'), each once while the step's lines have it: on a
// partial line hedged, `warning (step read in part): W`, as its short
// groups may be why, and again unhedged should its whole line have it
// too; one that the step's earlier line gave and this one has not is
// withdrawn (the rest of the step came, or its file was read again).
func (f *statsFollower) sayWarnings(step int64, ws []string, partial bool) {
	hedge := ""
	if partial {
		hedge = " (step read in part)"
	}
	for _, earlier := range f.stepWarnings[step] {
		if !slices.Contains(ws, earlier.text) {
			delete(f.warned, earlier)
			fmt.Fprintf(f.errOut, "rewardlens: withdrawn (step %d's updated line has it no more): %s\n", step, textsafe.Line(earlier.text))
		}
	}
	var said []givenWarning
	for _, w := range ws {
		given := givenWarning{text: w, hedged: partial}
		said = append(said, given)
		if !f.warned[given] {
			f.warned[given] = true
			fmt.Fprintf(f.errOut, "rewardlens: warning%s: %s\n", hedge, textsafe.Line(w))
		}
	}
	if f.stepWarnings == nil {
		f.stepWarnings = map[int64][]givenWarning{}
	}
	f.stepWarnings[step] = said
}

// givenWarning is a warning as sayWarnings gave it: hedged, on a partial
// line, or not; given both ways it is said twice.
type givenWarning struct {
	text   string
	hedged bool
}

// sayRunNote records what batch b, of step, says of the layout's note of
// the run, and says the note once, when it first holds: no batch refutes
// it and one bears it out. Said, it is withdrawn, with why, should a
// batch refute it later (open-instruct's filter was off after all):
// following never contradicts itself unsaid.
func (f *statsFollower) sayRunNote(step int64, b int) {
	if f.runNote == nil {
		return
	}
	ev := f.runNote.Of(f.res, b)
	if f.noteEvidence == nil {
		f.noteEvidence = map[int64]layouts.RunNoteEvidence{}
	}
	f.countNote(f.noteEvidence[step], -1)
	f.noteEvidence[step] = ev
	f.countNote(ev, 1)
	holds := f.refuted == 0 && f.borne > 0
	switch {
	case holds && !f.runNoteSaid:
		f.runNoteSaid = true
		fmt.Fprintf(f.errOut, "rewardlens: warning: %s\n", textsafe.Line(f.runNote.Text))
	case !holds && f.runNoteSaid && f.refuted > 0:
		fmt.Fprintf(f.errOut, "rewardlens: %s\n", textsafe.Line(f.runNote.Withdrawal(step)))
		f.runNote = nil // refuted, it is not said again
	}
}

// countNote adds d to the count of batches whose evidence is ev.
func (f *statsFollower) countNote(ev layouts.RunNoteEvidence, d int) {
	switch ev {
	case layouts.RunNoteBorneOut:
		f.borne += d
	case layouts.RunNoteRefuted:
		f.refuted += d
	}
}

// agreementStanding says how the trainer check's warning of batch b's line
// (agree's) stands. A step read in part compares its short groups, whose
// mean and std are not the trainer's, with the advantages the trainer
// logged of whole ones: the warning is provisional on a partial line
// (hedge "step read in part"), and so on a step with fewer rows than
// the step before (hedge "fewer rows than step S's N: read in part?"): a
// run writing two steps at once (open-instruct's rollout threads) ends
// one after the next has started. The warning the step's earlier line
// gave is withdrawn when this line has none, replaced when it has
// another.
func (f *statsFollower) agreementStanding(b int, agree *agreementJSON, partial bool) agreementNotes {
	t := &f.trends[b]
	var n agreementNotes
	if agree != nil {
		n.warning = agree.Warning
	}
	switch {
	case n.warning == "":
	case partial:
		n.hedge = "step read in part"
	case b > 0 && t.Trajectories < f.trends[b-1].Trajectories:
		before := &f.trends[b-1]
		n.hedge = fmt.Sprintf("fewer rows than step %d's %d: read in part?", before.Step, before.Trajectories)
	}
	if earlier := f.agreementWarnings[t.Step]; earlier != "" && earlier != n.warning {
		n.withdrawn = earlier
	}
	if n.warning == "" {
		delete(f.agreementWarnings, t.Step)
	} else {
		if f.agreementWarnings == nil {
			f.agreementWarnings = map[int64]string{}
		}
		f.agreementWarnings[t.Step] = n.warning
	}
	return n
}

// agreementNotes is how a line's trainer check warning stands
// (statsFollower.agreementStanding): warning is the line's ("" for none),
// hedge why it is provisional ("" when it is not), withdrawn the
// warning of the step's earlier line that it withdraws or replaces.
type agreementNotes struct {
	warning, hedge, withdrawn string
}

// loggedOf compares the rewards of batch b with the logged advantages, as
// stats does per batch; nil, nil without them. The trainer-style rewards
// are matched on the batch's rows alone (agreement.MatchLogged of them):
// following has no whole reading to match.
func (f *statsFollower) loggedOf(b int) (*loggedJSON, *agreementJSON) {
	batch := &f.res.Ranking.Batches[b]
	logged := newLoggedJSON(f.res, batch)
	if logged == nil {
		return nil, nil
	}
	rows := batch.Members
	if !slices.IsSorted(rows) {
		rows = slices.Sorted(slices.Values(rows))
	}
	next := 0 // Filter asks the rows in ascending order
	ev := f.res.Evaluation.Filter(func(i int) bool {
		for next < len(rows) && rows[next] < i {
			next++
		}
		return next < len(rows) && rows[next] == i
	})
	return logged, newAgreementJSON(agreement.MatchLoggedFrom(ev, f.res.Options, f.cfg.From, scoring.Uncapped, f.linesLeftOut()), batch.Step)
}

// followLine is a batch's line in JSON.
type followLine struct {
	Step         int64            `json:"step"`
	Trajectories int              `json:"trajectories"`
	Invalid      int              `json:"invalid"`
	RewardMean   number           `json:"reward_mean"`
	RewardStd    number           `json:"reward_std"`
	FrontierSize int              `json:"frontier_size"`
	Findings     []health.Finding `json:"findings"`
	DeadSignal   *deadSignalJSON  `json:"dead_signal,omitempty"`
	Logged       *loggedJSON      `json:"logged_advantage,omitempty"`
	Agreement    *agreementJSON   `json:"trainer_agreement,omitempty"`
	SkippedLines int              `json:"skipped_lines,omitempty"` // so far in the run
	// UnreadFiles are the followed files not read as the line is
	// printed (follow.Unread): their rows are missing from it.
	UnreadFiles []unreadFileJSON `json:"unread_files,omitempty"`
	Updated     bool             `json:"updated,omitempty"`
	// Provisional is why the step's findings may not stand, as each
	// finding's (health.Finding.Provisional): its run is probably still
	// writing it (statsFollower.partial).
	Provisional string `json:"provisional,omitempty"`
	// WarningWithdrawn is the trainer check's warning of the step's
	// earlier line that this one withdraws or replaces.
	WarningWithdrawn string `json:"warning_withdrawn,omitempty"`
}

// printLine prints a batch's line: step, count, reward mean and std,
// frontier size and findings, then the followed files not read so far
// (follow.Unread, whose rows it lacks), then its comparison with the logged
// advantages (logged and agree, nil without them) and its dead signal
// (nil for none) on lines of their own, as stats prints them, the
// trainer check's warning as warning says it stands; updated marks a batch printed
// before, to which trajectories came since, or whose file was read again;
// provisional says why the batch is probably still being written
// (printLines), its findings provisional, as stats --health's table says
// them ("" for a batch that is not).
func (f *statsFollower) printLine(t *diagnose.Trend, findings []health.Finding, dead *diagnose.DeadSignal, logged *loggedJSON, agree *agreementJSON, warning agreementNotes, updated bool, provisional string) error {
	var deadJSON *deadSignalJSON
	if dead != nil {
		deadJSON = newDeadSignalJSON(*dead)
	}
	if agree != nil && warning.hedge != "" {
		hedged := *agree
		hedged.Provisional = true
		agree = &hedged
	}
	if f.json {
		line, err := output.MarshalJSON(followLine{t.Step, t.Trajectories, t.Invalid, number(t.Reward.Mean), number(t.Reward.Std),
			t.FrontierSize, append([]health.Finding{}, findings...), deadJSON, logged, agree, f.skips.N, unreadFilesJSON(f.unread.Files()), updated, provisional, warning.withdrawn}, "")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(f.out, "%s\n", line)
		return err
	}
	health := "healthy"
	if len(findings) > 0 {
		parts := make([]string, len(findings))
		for i, fd := range findings {
			parts[i] = fmt.Sprintf("%s %s=%s", fd.Level, textsafe.Line(checkName(fd)), tableNumber(fd.Value))
		}
		health = strings.Join(parts, ", ")
	}
	health += provisionalNote(provisional)
	note := ""
	if updated {
		note = " (updated)"
	}
	if _, err := fmt.Fprintf(f.out, "step %d%s  trajectories %d (%d invalid)  reward mean %s std %s  frontier %d  %s\n",
		t.Step, note, t.Trajectories, t.Invalid, tableNumber(t.Reward.Mean), tableNumber(t.Reward.Std), t.FrontierSize, health); err != nil {
		return err
	}
	if w := f.unread.Warning(""); w != "" {
		if _, err := fmt.Fprintf(f.out, "  warning: %s\n", textsafe.Line(w)); err != nil {
			return err
		}
	}
	if err := writeLogged(f.out, "  ", logged, nil); err != nil {
		return err
	}
	if err := writeAgreementWarning(f.out, warning); err != nil {
		return err
	}
	if deadJSON == nil {
		return nil
	}
	_, err := fmt.Fprintf(f.out, "  %s\n", deadSignalLine(deadJSON))
	return err
}

// writeAgreementWarning prints, under a step's line, the trainer check's
// warning as notes says it stands: "warning: W" (writeLogged's), with
// its hedge and whether it replaces the earlier line's in parentheses,
// or that the earlier line's is withdrawn.
func writeAgreementWarning(w io.Writer, notes agreementNotes) error {
	if notes.warning == "" {
		if notes.withdrawn == "" {
			return nil
		}
		_, err := fmt.Fprintln(w, "  the warning of this step's earlier line is withdrawn")
		return err
	}
	var marks []string
	if notes.hedge != "" {
		marks = append(marks, notes.hedge)
	}
	if notes.withdrawn != "" {
		marks = append(marks, "replaces the earlier line's")
	}
	mark := ""
	if len(marks) > 0 {
		mark = " (" + strings.Join(marks, "; ") + ")"
	}
	_, err := fmt.Fprintf(w, "  warning%s: %s\n", mark, textsafe.Line(notes.warning))
	return err
}

// unreadFileJSON is a followed file not read, in a JSON line: its path
// and the first line of its latest error.
type unreadFileJSON struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// unreadFilesJSON is files in a JSON line, nil for none.
func unreadFilesJSON(files []loaders.FileError) []unreadFileJSON {
	var out []unreadFileJSON
	for _, f := range files {
		out = append(out, unreadFileJSON{f.Path, f.FirstLine()})
	}
	return out
}

// provisionalNote is what a finding's message, or a line's verdict, adds
// when it is provisional, why being why: " (provisional: WHY)", as stats
// --health's table and stats --follow's lines say it; "" when why is "".
func provisionalNote(why string) string {
	if why == "" {
		return ""
	}
	return " (provisional: " + textsafe.Line(why) + ")"
}
