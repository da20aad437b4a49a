package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// unreadFlag is a flag a command does not read, unless readWhen (when
// not nil) says the settings make it read it after all.
type unreadFlag struct {
	name     string
	readWhen func(cfg setup.Config) bool
}

// unreadFlags are, per command, the flags it does not read and why. Every
// command resolves, and so checks, the same settings; one given to a
// command that does not read it is warned of rather than passed over.
// stats and the dashboard read every flag.
var unreadFlags = map[string]struct {
	why   string
	flags []unreadFlag
}{
	"compute": {
		why:   "compute does not analyse the prompts (stats, prompts and the dashboard do)",
		flags: []unreadFlag{{name: "prompt-by"}, {name: "task-metric"}, {name: "pass-threshold"}},
	},
	// prompts reads the score (score_mean, a task metric that is an
	// objective), not the rewards: the flags of the score (objectives,
	// weights, constraints, --penalty, --normalize-objectives) it reads,
	// and --match-logged, whose fitted weights weigh it.
	"prompts": {
		why: "prompts writes no reward (compute, stats and the dashboard do)",
		flags: []unreadFlag{
			{name: "method"}, {name: "epsilon"}, {name: "std"}, {name: "scale"},
			{name: "no-normalize"}, {name: "group-of-one"}, {name: "filter-groups"},
			{name: "priority"}, {name: "priority-tolerance"},
			{name: "scope", readWhen: objectivesNormalised},
		},
	},
}

// objectivesNormalised reports whether cfg normalises the objectives
// within their comparison groups, which --scope then chooses.
func objectivesNormalised(cfg setup.Config) bool {
	return cfg.NormalizeObjectives != "" && cfg.NormalizeObjectives != string(engine.NormNone)
}

// warnFlagsUnread warns on w, in one line, of each flag of flags given
// (with its value) that command does not read under cfg (unreadFlags).
func warnFlagsUnread(w io.Writer, command string, flags *pflag.FlagSet, cfg setup.Config) {
	unread := unreadFlags[command]
	var given []string
	for _, u := range unread.flags {
		f := flags.Lookup(u.name)
		if f == nil || !f.Changed || u.readWhen != nil && u.readWhen(cfg) {
			continue
		}
		given = append(given, flagAsGiven(f))
	}
	if len(given) > 0 {
		fmt.Fprintf(w, "rewardlens: warning: %s ignored: %s\n", textsafe.Line(english.List(given)), unread.why)
	}
}

// flagAsGiven is f as a command line gives it: a boolean flag by its
// name alone when true.
func flagAsGiven(f *pflag.Flag) string {
	switch {
	case f.Value.Type() != "bool":
		return "--" + f.Name + " " + f.Value.String()
	case f.Value.String() == "true":
		return "--" + f.Name
	}
	return "--" + f.Name + "=false"
}
