package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders"
)

// maxReasonsShown is how many skip reasons the CLI prints.
const maxReasonsShown = 5

// prepared is what compute and stats share: the checked settings, the
// loaded trajectories and the computer built for them.
type prepared struct {
	data     *loaders.Result
	computer *engine.RewardComputer
}

// prepare checks the settings (compiling every expression before any data
// is read), loads the inputs and builds the computer.
func prepare(cmd *cobra.Command, s *settings, args []string, stdio IO) (*prepared, error) {
	if len(args) == 0 {
		return nil, usagef("no input files (give FILE... or - for standard input)")
	}
	cfg, err := s.config(cmd.Flags(), nil)
	if err != nil {
		return nil, err
	}
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	opts, err := s.loaderOptions(stdinOf(stdio))
	if err != nil {
		return nil, err
	}
	data, err := loaders.Load(args, opts)
	if err != nil {
		return nil, inputError{err}
	}
	reportSkipped(stdio.Stderr, data)
	c, err := newComputer(cfg, &data.Trajectories[0])
	if err != nil {
		return nil, err
	}
	return &prepared{data: data, computer: c}, nil
}

// reportSkipped tells, on stderr, how many lines --skip-invalid-lines
// skipped and the first reasons.
func reportSkipped(w io.Writer, data *loaders.Result) {
	if data.Skipped == 0 {
		return
	}
	fmt.Fprintf(w, "rewardlens: skipped %d invalid %s\n", data.Skipped, plural(data.Skipped, "line"))
	for _, e := range data.SkipReasons[:min(len(data.SkipReasons), maxReasonsShown)] {
		fmt.Fprintf(w, "  %s\n", textsafe.Line(e.Error()))
	}
	if data.Skipped > maxReasonsShown {
		fmt.Fprintf(w, "  ... and %d more\n", data.Skipped-maxReasonsShown)
	}
}

// reportInvalid tells, on stderr, how many trajectories are invalid and
// why: they are in the output with a neutral reward, never dropped.
func reportInvalid(w io.Writer, counts map[string]int) {
	total := 0
	for _, n := range counts {
		total += n
	}
	if total == 0 {
		return
	}
	fmt.Fprintf(w, "rewardlens: %d invalid %s (neutral reward, rank -1): %s\n",
		total, plural(total, "trajectory"), describeCounts(counts))
}

// describeCounts lists counts per cause, most frequent first.
func describeCounts(counts map[string]int) string {
	causes := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(causes))
	for i, c := range causes {
		parts[i] = fmt.Sprintf("%s %d", textsafe.Line(c), counts[c])
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") {
		return strings.TrimSuffix(word, "y") + "ies"
	}
	return word + "s"
}
