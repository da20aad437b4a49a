package cmd

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/output"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/prompts"
)

func newPromptsCommand(s *settings, stdio IO) *cobra.Command {
	var format, out string
	var force bool
	cmd := &cobra.Command{
		Use:   "prompts [flags] FILE...",
		Short: "Write every prompt's history across the run and its status (JSONL, CSV or JSON)",
		Long: `prompts writes one record per prompt (--prompt-by: the group by
default; ` + layouts.PromptDefaultsHelp() + `):
prompt, steps, first_step, last_step, history ([step, n, pass_rate,
score_mean] per step), first_solved and status, the first of never,
always, learned, forgotten, solved, unsolved and unstable that holds. A
completion passes when its task metric (--task-metric: an objective or a
field expression; verl's acc when the dump has it, else the first
objective) is >= --pass-threshold (default 1; open-instruct's layout
reads it from the reward levels); a prompt is solved at a step when its
pass rate there is >= 0.5. The counts per status go to stderr.`,
		Example: `  rewardlens prompts rollouts.jsonl
  rewardlens prompts --task-metric acc --pass-threshold 1 --format csv --out prompts.csv runs/verl/
  rewardlens prompts --prompt-by 'metadata.question' rollouts.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := outFormat(cmd, &format, out, stdio.Stderr, "jsonl", "csv", "json"); err != nil {
				return err
			}
			if err := checkOut(out, cmd.Flags().Changed("out"), args, stdio.Stdin, force); err != nil {
				return err
			}
			p, err := prepareColumns(cmd, s, args, stdio)
			if err != nil {
				return err
			}
			warnFlagsUnread(stdio.Stderr, "prompts", cmd.Flags(), p.cfg)
			p.needsTask = true
			res, err := p.result(stdio.Stderr)
			if err != nil {
				return err
			}
			c := p.columns
			a := c.Analyze(res)
			var cells csvCells
			err = writeOutput(cmd.Context(), out, args, stdio.Stdout, func(w io.Writer) error {
				return writePrompts(w, format, a.Prompts, &cells)
			})
			if err != nil {
				return err
			}
			cells.warn(stdio.Stderr, "prompts")
			reportPrompts(stdio.Stderr, c, &a)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "output format: jsonl, csv or json (default: the one --out's extension names, else jsonl)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to `PATH` (atomically) instead of stdout")
	cmd.Flags().BoolVar(&force, "force", false, "let --out replace a read-only file or another user's (keeping its owner and mode)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"jsonl", "csv", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// reportPrompts says on stderr what the task metric is and how many
// prompts have each status.
func reportPrompts(w io.Writer, c *promptColumns, a *prompts.Analysis) {
	fmt.Fprintf(w, "rewardlens: task metric %s, a completion passes at >= %s; %d %s: %s\n",
		textsafe.Line(c.TaskName), strconv.FormatFloat(c.Threshold, 'g', -1, 64), len(a.Prompts), english.Plural(len(a.Prompts), "prompt"), describeStatuses(a.Counts()))
	if a.WithoutMetric > 0 {
		fmt.Fprintf(w, "rewardlens: warning: %d %s without the task metric at any step left out\n", a.WithoutMetric, english.Plural(a.WithoutMetric, "prompt"))
	}
}

// describeStatuses lists the counts in the statuses' order: "never 3,
// always 1, ...".
func describeStatuses(counts []prompts.StatusCount) string {
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = fmt.Sprintf("%s %d", c.Status, c.Count)
	}
	return strings.Join(parts, ", ")
}

// writePrompts writes the prompts' records (docs/CONTRACT.md, Output of
// prompts); cells makes CSV's prompt cells safe.
func writePrompts(w io.Writer, format string, ps []prompts.Prompt, cells *csvCells) error {
	if format == "csv" {
		return writePromptsCSV(w, ps, cells)
	}
	sep := "\n"
	if format == "json" {
		sep = ",\n"
		if _, err := io.WriteString(w, "[\n"); err != nil {
			return err
		}
	}
	var buf []byte
	for k := range ps {
		buf = appendPromptJSON(buf[:0], &ps[k])
		if format == "json" && k == len(ps)-1 {
			sep = "\n"
		}
		buf = append(buf, sep...)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	if format == "json" {
		_, err := io.WriteString(w, "]\n")
		return err
	}
	return nil
}

// appendPromptJSON appends p's record: {"prompt","steps","first_step",
// "last_step","history":[[step,n,pass_rate,score_mean],...],
// "first_solved","status"}.
func appendPromptJSON(buf []byte, p *prompts.Prompt) []byte {
	buf = append(buf, `{"prompt":`...)
	buf = output.AppendJSONString(buf, p.Key)
	buf = append(buf, `,"steps":`...)
	buf = strconv.AppendInt(buf, int64(len(p.History)), 10)
	buf = append(buf, `,"first_step":`...)
	buf = strconv.AppendInt(buf, p.FirstStep(), 10)
	buf = append(buf, `,"last_step":`...)
	buf = strconv.AppendInt(buf, p.LastStep(), 10)
	buf = append(buf, `,"history":`...)
	buf = appendHistory(buf, p.History)
	buf = append(buf, `,"first_solved":`...)
	if p.HasSolved {
		buf = strconv.AppendInt(buf, p.FirstSolved, 10)
	} else {
		buf = append(buf, "null"...)
	}
	buf = append(buf, `,"status":"`...)
	buf = append(buf, p.Status...)
	return append(buf, `"}`...)
}

// appendHistory appends the history as a JSON array of
// [step, n, pass_rate, score_mean] (score_mean null without a valid
// completion).
func appendHistory(buf []byte, h []prompts.Point) []byte {
	buf = append(buf, '[')
	for j, pt := range h {
		if j > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, pt.Step, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(pt.N), 10)
		buf = append(buf, ',')
		buf = output.AppendJSONNumber(buf, pt.PassRate())
		buf = append(buf, ',')
		buf = output.AppendJSONNumber(buf, pt.ScoreMean())
		buf = append(buf, ']')
	}
	return append(buf, ']')
}

// writePromptsCSV writes the columns prompt (through cells), steps,
// first_step, last_step, first_solved (empty for none), status and
// history (its JSON text).
func writePromptsCSV(w io.Writer, ps []prompts.Prompt, cells *csvCells) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"prompt", "steps", "first_step", "last_step", "first_solved", "status", "history"}); err != nil {
		return err
	}
	var buf []byte
	for k := range ps {
		p := &ps[k]
		solved := ""
		if p.HasSolved {
			solved = strconv.FormatInt(p.FirstSolved, 10)
		}
		buf = appendHistory(buf[:0], p.History)
		row := []string{cells.cell(p.Key), strconv.Itoa(len(p.History)), strconv.FormatInt(p.FirstStep(), 10), strconv.FormatInt(p.LastStep(), 10), solved, string(p.Status), string(buf)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
