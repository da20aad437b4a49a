package cmd

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
)

// applyLayout is layouts.Apply, --from checked first (a usage error) and
// its errors about the inputs. followLog is where following says what it
// waits for (nil when not following): inputs that hold no record yet are
// waited for, the layout (--from auto) or a trainer's defaults (--from
// names it) told by their first. stdin is standard input's first records
// when layouts.PeekStdin read them, else nil.
func applyLayout(ctx context.Context, cfg setup.Config, paths []string, opts loaders.Options, stdin *loaders.FileFields, followLog io.Writer) (setup.Config, string, *layouts.RowsCheck, error) {
	if err := checkFrom(cfg); err != nil {
		return cfg, "", nil, err
	}
	var await *layouts.Awaiting
	if followLog != nil {
		why := "to recognise its layout (--from names it)"
		if layouts.IsTrainer(cfg.From) {
			why = "to take the defaults of --from " + cfg.From + " from its fields"
		}
		await = &layouts.Awaiting{Poll: awaitPoll, Waiting: func(paths []string) {
			fmt.Fprintf(followLog, "rewardlens: waiting for a first record in %s, %s\n", textsafe.Line(strings.Join(paths, ", ")), why)
		}, Quiet: layoutQuiet, WaitingStep: func(path, what string) {
			fmt.Fprintf(followLog, "rewardlens: waiting for the first step in %s to be whole (a record of the next step, or the file unmodified for %s), to read %s from it\n", textsafe.Line(path), layoutQuiet, what)
		}}
	}
	cfg, sentence, check, err := layouts.Apply(ctx, cfg, paths, opts, stdin, await)
	if err != nil {
		return cfg, "", nil, inputError{err}
	}
	return cfg, sentence, check, nil
}

// layoutQuiet is how long a followed file must go unmodified for its
// first step to be taken for whole without the next step's first record
// (layouts.Awaiting): a trainer writes a step's records in one go, much
// faster.
var layoutQuiet = 10 * time.Second

// checkFrom is the usage error of a --from (config from) that names no
// layout.
func checkFrom(cfg setup.Config) error {
	if err := layouts.CheckFrom("--from", cfg.From); err != nil {
		return usageError{err}
	}
	return nil
}

// allBatches returns the index of every batch of res.
func allBatches(res *engine.Result) []int {
	all := make([]int, len(res.Ranking.Batches))
	for b := range all {
		all[b] = b
	}
	return all
}

// methodSentence names the method cfg computes with and the settings of
// it that differ from the defaults ("method grpo, epsilon 1e-06, a group
// of one: score"), for stderr beside the layout's sentence; "" when cfg's
// options are not valid (their error comes later).
func methodSentence(cfg setup.Config) string {
	opts, err := engine.OptionsOf(cfg)
	if err != nil {
		return ""
	}
	return strings.Join(append([]string{"method " + string(opts.Method)}, opts.ChangedSettings()...), ", ")
}
