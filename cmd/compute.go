package cmd

import (
	"encoding/csv"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/output"
)

func newComputeCommand(s *settings, stdio IO) *cobra.Command {
	var format, out string
	var force bool
	cmd := &cobra.Command{
		Use:   "compute [flags] FILE...",
		Short: "Write the reward of every trajectory (JSONL, CSV or JSON)",
		Long: `compute writes one record per trajectory, in input order:
id, batch, group, source (when the score sums sources), score, reward,
pareto_rank, crowding, valid, feasible and violation (with constraints),
logged_advantage (when the trainer's advantage is read: TRL's and
open-instruct's layouts, --logged-advantage), kept (with --filter-groups)
and objectives, the raw objective values (in CSV a column each);
docs/CONTRACT.md says each.

Invalid trajectories are kept, with a neutral reward, and counted per
cause on stderr; a batch more than half invalid is warned of. When no
trajectory is valid, nothing is written and the status is 2: the error
names the objective, the cause and the nearest field names.`,
		Example: `  rewardlens compute --method grpo rollouts.jsonl
  rewardlens compute --computer svrl --format csv --out rewards.csv step_*.jsonl
  cat rollouts.jsonl | rewardlens compute --method rloo -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := outFormat(cmd, &format, out, stdio.Stderr, "jsonl", "csv", "json"); err != nil {
				return err
			}
			if err := checkOut(out, cmd.Flags().Changed("out"), args, stdio.Stdin, force); err != nil {
				return err
			}
			p, err := prepare(cmd, s, args, stdio)
			if err != nil {
				return err
			}
			warnFlagsUnread(stdio.Stderr, "compute", cmd.Flags(), p.cfg)
			var parts *output.RecordParts
			if format != "csv" {
				parts = output.StartRecordParts(p.ev, p.ids.at, rewardChunk)
			}
			res, err := p.result(stdio.Stderr)
			if err != nil {
				if parts != nil {
					parts.Stop()
				}
				return err
			}
			var kept []bool
			if p.filter != nil {
				kept = p.filter.Kept
				if parts != nil {
					parts.MarkKept(kept)
				}
				reportFilter(stdio.Stderr, p.cfg.FilterGroups, p.filter)
			}
			var cells csvCells
			err = writeOutput(cmd.Context(), out, args, stdio.Stdout, func(w io.Writer) error {
				return writeRewards(w, format, &p.ids, parts, res, kept, &cells)
			})
			if err != nil {
				return err
			}
			cells.warn(stdio.Stderr, "ids, groups or sources")
			reportInvalid(stdio.Stderr, res.Evaluation.InvalidCounts(), p.invalidWhere(res.Evaluation), res.Evaluation.EvalReason)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "output format: jsonl, csv or json (default: the one --out's extension names, else jsonl)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to `PATH` (atomically) instead of stdout")
	cmd.Flags().BoolVar(&force, "force", false, "let --out replace a read-only file or another user's (keeping its owner and mode)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"jsonl", "csv", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// writeRewards writes the output of compute (docs/CONTRACT.md, Output of
// compute); ids are the trajectories' IDs and parts, for JSONL and JSON,
// the parts of the records started before res was computed; cells makes
// CSV's text cells safe.
func writeRewards(w io.Writer, format string, ids *idList, parts *output.RecordParts, res *engine.Result, kept []bool, cells *csvCells) error {
	if format == "csv" {
		return writeRewardsCSV(w, ids, res, kept, cells)
	}
	parts.Stop()
	if format == "json" {
		if _, err := io.WriteString(w, "[\n"); err != nil {
			return err
		}
	}
	n := ids.len()
	sep := "\n"
	if format == "json" {
		sep = ",\n"
	}
	err := writeChunks(w, n, rewardChunk, func(buf []byte, lo, hi int) []byte {
		buf = parts.AppendRecords(buf, res, lo, hi, sep)
		if format == "json" && hi == n {
			buf = append(buf[:len(buf)-len(sep)], '\n') // no comma after the last
		}
		return buf
	})
	if err == nil && format == "json" {
		_, err = io.WriteString(w, "]\n")
	}
	return err
}

// rewardChunk is how many records a goroutine formats at a time.
const rewardChunk = 4096

// writeChunks writes to w, in order, the text that format appends to a
// buffer for each range [lo, hi) of [0, n) cut into chunks of chunk items.
// The chunks are formatted on up to GOMAXPROCS goroutines while the
// calling goroutine writes the finished ones in order; the output does not
// depend on the schedule. After a write error, the rest is not written.
func writeChunks(w io.Writer, n, chunk int, format func(buf []byte, lo, hi int) []byte) error {
	chunks := (n + chunk - 1) / chunk
	nw := min(runtime.GOMAXPROCS(0), chunks)
	if nw <= 1 {
		var buf []byte
		for lo := 0; lo < n; lo += chunk {
			buf = format(buf[:0], lo, min(lo+chunk, n))
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}
	// A dispatcher hands the chunks out in order, to the workers and to the
	// writer's queue; a chunk needs one of slots buffers, which the writer
	// gives back once it has written it, so at most slots chunks are in
	// memory at a time.
	type job struct {
		lo, hi int
		buf    []byte
		done   chan struct{}
	}
	slots := 2 * nw
	bufs := make(chan []byte, slots)
	for range slots {
		bufs <- nil
	}
	jobs, queue := make(chan *job, slots), make(chan *job, slots)
	stop := make(chan struct{})
	go func() {
		defer close(queue)
		defer close(jobs)
		for lo := 0; lo < n; lo += chunk {
			var buf []byte
			select {
			case buf = <-bufs:
			case <-stop:
				return
			}
			j := &job{lo: lo, hi: min(lo+chunk, n), buf: buf, done: make(chan struct{})}
			jobs <- j
			queue <- j
		}
	}()
	for range nw {
		go func() {
			for j := range jobs {
				j.buf = format(j.buf[:0], j.lo, j.hi)
				close(j.done)
			}
		}()
	}
	var err error
	for j := range queue {
		<-j.done
		if err == nil {
			if _, err = w.Write(j.buf); err != nil {
				close(stop)
			}
		}
		bufs <- j.buf
	}
	return err
}

// writeRewardsCSV writes the columns id,batch,group,score,reward,
// pareto_rank,crowding,valid, feasible and violation with constraints,
// logged_advantage when the trainer's advantages are known, kept with
// --filter-groups (kept not nil), then one per objective (named by
// csvObjectiveColumns); a non-finite value is an empty cell and an infinite
// crowding distance "inf"; ids, groups and sources go through cells.
func writeRewardsCSV(w io.Writer, ids *idList, res *engine.Result, kept []bool, cells *csvCells) error {
	cw := csv.NewWriter(w)
	header := []string{"id", "batch", "group", "score", "reward", "pareto_rank", "crowding", "valid"}
	if res.Evaluation.HasSources() {
		header = slices.Insert(header, 3, "source")
	}
	if res.Evaluation.HasConstraints() {
		header = append(header, "feasible", "violation")
	}
	if res.Evaluation.Logged != nil {
		header = append(header, "logged_advantage")
	}
	if kept != nil {
		header = append(header, "kept")
	}
	names := make([]string, len(res.Objectives))
	for k, o := range res.Objectives {
		names[k] = o.Name
	}
	header = append(header, csvObjectiveColumns(header, names)...)
	if err := cw.Write(header); err != nil {
		return err
	}
	row := make([]string, len(header))
	for i := range ids.len() {
		row = append(row[:0], cells.cell(string(ids.at(i))), strconv.FormatInt(res.Evaluation.StepOf(i), 10), cells.cell(res.Evaluation.GroupOf(i)),
			csvNumber(res.Scores[i]), csvNumber(res.Rewards[i]), strconv.Itoa(res.Ranking.Ranks[i]),
			csvCrowding(res.Ranking.Crowding[i]), strconv.FormatBool(res.Evaluation.Valid[i]))
		if res.Evaluation.HasSources() {
			row = slices.Insert(row, 3, cells.cell(res.Evaluation.SourceOf(i)))
		}
		switch {
		case !res.Evaluation.HasConstraints():
		case !res.Evaluation.Valid[i]: // empty cells, as its score's
			row = append(row, "", "")
		default:
			row = append(row, strconv.FormatBool(res.Evaluation.Feasible(i)), csvNumber(res.Evaluation.ViolationOf(i)))
		}
		if res.Evaluation.Logged != nil {
			row = append(row, csvNumber(res.Evaluation.Logged[i]))
		}
		if kept != nil {
			row = append(row, strconv.FormatBool(kept[i]))
		}
		for k, v := range res.Evaluation.Row(i) {
			if !res.Evaluation.HasObjective(i, k) || res.Evaluation.Missing(i, k) {
				v = math.NaN() // another source's objective, or none in the record: an empty cell
			}
			row = append(row, csvNumber(v))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvObjectivePrefix is the path of an objective's value in a JSONL
// record, which names a CSV column whose objective's name is taken.
const csvObjectivePrefix = "objectives."

// csvObjectiveColumns returns the CSV column of each objective of the
// given names (unique, as objectives' are) after the fixed columns: its
// name, or, when that is a fixed column, the shortest of
// "objectives.NAME", "objectives.objectives.NAME", ... that is no
// objective's name. The columns are unique: no fixed column starts with
// "objectives.", so a kept name differs from the fixed columns and a
// renamed one from those too; a renamed one is no objective's name, so it
// differs from the kept ones; and two renamed ones differ because their
// fixed names do.
func csvObjectiveColumns(fixed, names []string) []string {
	isName := make(map[string]bool, len(names))
	for _, name := range names {
		isName[name] = true
	}
	columns := make([]string, len(names))
	for k, name := range names {
		column := name
		if slices.Contains(fixed, name) {
			column = csvObjectivePrefix + name
			for isName[column] {
				column = csvObjectivePrefix + column
			}
		}
		columns[k] = column
	}
	return columns
}

func csvNumber(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func csvCrowding(x float64) string {
	if math.IsInf(x, 1) {
		return "inf"
	}
	return csvNumber(x)
}
