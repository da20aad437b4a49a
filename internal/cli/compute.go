package cli

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
)

func newComputeCommand(s *settings, stdio IO) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "compute [flags] FILE...",
		Short: "Write the reward of every trajectory (JSONL, CSV or JSON)",
		Long: `compute writes one record per trajectory, in input order:
id, batch, group, score, reward, pareto_rank, crowding, valid and the raw
objective values. Invalid trajectories are kept, with a neutral reward, and
counted per cause on stderr.`,
		Example: `  rewardlens compute --method grpo rollouts.jsonl
  rewardlens compute --computer svrl --format csv --out rewards.csv step_*.jsonl
  cat rollouts.jsonl | rewardlens compute --method rloo -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := formatCheck(format, "jsonl", "csv", "json"); err != nil {
				return err
			}
			p, err := prepare(cmd, s, args, stdio)
			if err != nil {
				return err
			}
			res := p.computer.Compute(p.data.Trajectories, p.computer.Options.Method)
			err = writeOutput(out, args, stdio.Stdout, func(w io.Writer) error {
				return writeRewards(w, format, p.data.Trajectories, res)
			})
			if err != nil {
				return err
			}
			reportInvalid(stdio.Stderr, res.InvalidCounts())
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "jsonl", "output format: jsonl, csv or json")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to `PATH` (atomically) instead of stdout")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"jsonl", "csv", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// writeRewards writes SPEC.md's output of compute.
func writeRewards(w io.Writer, format string, ts []engine.Trajectory, res *engine.Result) error {
	if format == "csv" {
		return writeRewardsCSV(w, ts, res)
	}
	var buf []byte
	if format == "json" {
		buf = append(buf, "[\n"...)
	}
	for i := range ts {
		buf = appendRewardJSON(buf, &ts[i], res, i)
		if format == "json" && i < len(ts)-1 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		if len(buf) > 1<<16 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if format == "json" {
		buf = append(buf, "]\n"...)
	}
	_, err := w.Write(buf)
	return err
}

// appendRewardJSON appends trajectory i's record:
// {"id","batch","group","score","reward","pareto_rank","crowding","valid","objectives":{name: raw value}}.
func appendRewardJSON(buf []byte, t *engine.Trajectory, res *engine.Result, i int) []byte {
	buf = append(buf, `{"id":`...)
	buf = appendJSONString(buf, t.ID)
	buf = append(buf, `,"batch":`...)
	buf = strconv.AppendInt(buf, t.Batch, 10)
	buf = append(buf, `,"group":`...)
	buf = appendJSONString(buf, t.Group)
	buf = append(buf, `,"score":`...)
	buf = appendJSONNumber(buf, res.Scores[i])
	buf = append(buf, `,"reward":`...)
	buf = appendJSONNumber(buf, res.Rewards[i])
	buf = append(buf, `,"pareto_rank":`...)
	buf = strconv.AppendInt(buf, int64(res.Ranks[i]), 10)
	buf = append(buf, `,"crowding":`...)
	if math.IsInf(res.Crowding[i], 1) {
		buf = append(buf, `"inf"`...)
	} else {
		buf = appendJSONNumber(buf, res.Crowding[i])
	}
	buf = append(buf, `,"valid":`...)
	buf = strconv.AppendBool(buf, res.Valid[i])
	buf = append(buf, `,"objectives":{`...)
	for k, o := range res.Objectives {
		if k > 0 {
			buf = append(buf, ',')
		}
		buf = appendJSONString(buf, o.Name)
		buf = append(buf, ':')
		buf = appendJSONNumber(buf, res.Row(i)[k])
	}
	return append(buf, "}}"...)
}

// appendJSONNumber appends x as the shortest JSON number that reads back as
// x, or null when x is not finite.
func appendJSONNumber(buf []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(buf, "null"...)
	}
	return strconv.AppendFloat(buf, x, 'g', -1, 64)
}

func appendJSONString(buf []byte, s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return append(buf, b...)
}

// writeRewardsCSV writes the columns id,batch,group,score,reward,
// pareto_rank,crowding,valid then one per objective; a non-finite value is
// an empty cell and an infinite crowding distance "inf".
func writeRewardsCSV(w io.Writer, ts []engine.Trajectory, res *engine.Result) error {
	cw := csv.NewWriter(w)
	header := []string{"id", "batch", "group", "score", "reward", "pareto_rank", "crowding", "valid"}
	for _, o := range res.Objectives {
		header = append(header, o.Name)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	row := make([]string, len(header))
	for i := range ts {
		row = append(row[:0], ts[i].ID, strconv.FormatInt(ts[i].Batch, 10), ts[i].Group,
			csvNumber(res.Scores[i]), csvNumber(res.Rewards[i]), strconv.Itoa(res.Ranks[i]),
			csvCrowding(res.Crowding[i]), strconv.FormatBool(res.Valid[i]))
		for _, v := range res.Row(i) {
			row = append(row, csvNumber(v))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
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
