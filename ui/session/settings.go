package session

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/output"
)

// SettingsFile is where ctrl+s saves the settings, in the current
// directory.
const SettingsFile = "rewardlens-settings.toml"

// SettingsSaver saves the settings (ctrl+s) to SettingsFile, a name of
// rewardlens's own in the current directory, under output's policy for
// such a name (output.CheckReplace): never through a symbolic link, never
// over a read-only file or another user's, and over another file only
// once asked: the first ctrl+s says the file is there, a second replaces
// it, keeping its mode. A file this dashboard saved is replaced unasked.
type SettingsSaver struct {
	// saved is the file as the last save left it; asked, the file a
	// ctrl+s asked about replacing. Each is nil when there is none.
	saved, asked fs.FileInfo
}

// Save writes s's settings as a config file that --config loads,
// atomically, and says where, or what to do.
func (sv *SettingsSaver) Save(s *Session) (string, error) {
	old, err := output.CheckReplace(SettingsFile)
	if err != nil {
		return "", fmt.Errorf("save settings: %w", err)
	}
	known := func(fi fs.FileInfo) bool { return fi != nil && output.SameFile(old, fi) }
	if old != nil && !known(sv.saved) && !known(sv.asked) {
		sv.asked = old
		return "", fmt.Errorf("save settings: %s exists: ctrl+s again to replace it", SettingsFile)
	}
	sv.asked = nil
	cfg := s.SettingsConfig()
	err = output.ReplaceFile(SettingsFile, old, func(w io.Writer) error {
		fmt.Fprintf(w, "# rewardlens settings, saved from the dashboard; load with --config %s\n\n", SettingsFile)
		return encodeSettings(w, cfg)
	})
	if err != nil {
		return "", fmt.Errorf("save settings: %w", err)
	}
	sv.saved, _ = os.Lstat(SettingsFile)
	return fmt.Sprintf("saved the settings to %s (load with --config %s)", SettingsFile, SettingsFile), nil
}

// encodeSettings writes cfg as a TOML config file, its [sources.NAME]
// tables in the order cfg declares them (SourceNames), which the columns
// follow when the file is loaded: the encoder writes a map's keys sorted,
// so each source is encoded alone, after the rest.
func encodeSettings(w io.Writer, cfg setup.Config) error {
	names, sources := cfg.SourceNames(), cfg.Sources
	cfg.Sources = nil
	if err := newSettingsEncoder(w).Encode(cfg); err != nil {
		return err
	}
	for _, name := range names {
		var table bytes.Buffer
		if err := newSettingsEncoder(&table).Encode(map[string]map[string]setup.SourceConfig{"sources": {name: sources[name]}}); err != nil {
			return err
		}
		// [sources] once at most: [sources.NAME] declares it.
		if _, err := io.WriteString(w, "\n"+strings.TrimPrefix(table.String(), "[sources]\n")); err != nil {
			return err
		}
	}
	return nil
}

// newSettingsEncoder is a TOML encoder to w that does not indent, as the
// README writes configs.
func newSettingsEncoder(w io.Writer) *toml.Encoder {
	enc := toml.NewEncoder(w)
	enc.Indent = ""
	return enc
}

// SettingsConfig returns the session's config with the current method,
// scope, scale, normalisation and weights. Goals and weights go into the
// objectives themselves (pareto) or the svrl weights, so that nothing
// depends on --minimize or --weight. Normalisation off is written scale
// "none" with normalize false: a scale of group or batch beside it is a
// contradiction --config warns of, and not what the rewards were. Every
// option is written, and --match-logged is not: the options it chose are
// the file's. The group filter is saved as it is shown, on or off. With sources, the
// objectives, goals and weights are the config's, in its order of the
// sources.
func (s *Session) SettingsConfig() setup.Config {
	cfg := s.Config
	opts := s.Options
	normalize := opts.Normalize
	if !normalize {
		opts.Scale = engine.ScaleNone
	}
	cfg.Method, cfg.Scope, cfg.Scale, cfg.Normalize = string(opts.Method), string(opts.Scope), string(opts.Scale), &normalize
	// Every option the rewards were computed with, those --match-logged
	// chose among them, and not match_logged: a search again on load
	// would undo what the dashboard changed of its choice.
	epsilon := opts.Epsilon
	cfg.Epsilon, cfg.Std, cfg.GroupOfOne, cfg.ScorePrecision = &epsilon, string(opts.Std), string(opts.GroupOfOne), string(opts.ScorePrecision)
	cfg.MatchLogged = nil
	cfg.Computer = string(ComputerOf(s.Computer))
	cfg.NormalizeObjectives = ""
	if opts.NormalizeObjectives != engine.NormNone {
		cfg.NormalizeObjectives = string(opts.NormalizeObjectives)
	}
	if opts.Penalty != engine.DefaultPenalty || cfg.Penalty != nil {
		penalty := opts.Penalty
		cfg.Penalty = &penalty
	}
	// The group filter as shown: f turns --filter-groups' off and on.
	cfg.FilterGroups = ""
	if s.Filter.On {
		cfg.FilterGroups = s.Filter.Objective
	}
	if s.Evaluation.HasSources() {
		// Each source's objectives, goals and weights score it, as the
		// config gave them (its --minimize and --weight merged in).
		return cfg
	}
	cfg.Minimize, cfg.Weights = nil, nil
	w := slices.Clone(s.Weights())
	if cfg.Computer == string(setup.ComputerSVRL) {
		cfg.VerificationWeight, cfg.EfficiencyWeight = &w[1], &w[2]
		if w[0] != 1 {
			cfg.Weights = map[string]float64{scoring.SVRLTask: w[0]}
		}
		return cfg
	}
	cfg.Objectives = slices.Clone(cfg.Objectives)
	for k, o := range s.Evaluation.Objectives {
		cfg.Objectives[k].Goal, cfg.Objectives[k].Weight = string(o.Goal), &w[k]
	}
	return cfg
}
