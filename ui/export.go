package ui

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"

	tea "charm.land/bubbletea/v2"
	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/output"
	"github.com/rewardlens/rewardlens/ui/session"
)

// settingsFile is where ctrl+s saves the settings, in the current
// directory.
const settingsFile = "rewardlens-settings.toml"

// settingsSaver saves the settings (ctrl+s) to settingsFile, a name of
// rewardlens's own in the current directory, under output's policy for
// such a name (output.CheckReplace): never through a symbolic link, never
// over a read-only file or another user's, and over another file only
// once asked: the first ctrl+s says the file is there, a second replaces
// it, keeping its mode. A file this dashboard saved is replaced unasked.
type settingsSaver struct {
	// saved is the file as the last save left it; asked, the file a
	// ctrl+s asked about replacing. Each is nil when there is none.
	saved, asked fs.FileInfo
}

// save writes the current settings as a config file that --config loads,
// atomically, and says where, or what to do.
func (sv *settingsSaver) save(s *session.Session) (string, error) {
	old, err := output.CheckReplace(settingsFile)
	if err != nil {
		return "", fmt.Errorf("save settings: %w", err)
	}
	known := func(fi fs.FileInfo) bool { return fi != nil && output.SameFile(old, fi) }
	if old != nil && !known(sv.saved) && !known(sv.asked) {
		sv.asked = old
		return "", fmt.Errorf("save settings: %s exists: ctrl+s again to replace it", settingsFile)
	}
	sv.asked = nil
	cfg := settingsConfig(s)
	err = output.ReplaceFile(settingsFile, old, func(w io.Writer) error {
		fmt.Fprintf(w, "# rewardlens settings, saved from the dashboard; load with --config %s\n\n", settingsFile)
		enc := toml.NewEncoder(w)
		enc.Indent = "" // as the README writes configs
		return enc.Encode(cfg)
	})
	if err != nil {
		return "", fmt.Errorf("save settings: %w", err)
	}
	sv.saved, _ = os.Lstat(settingsFile)
	return fmt.Sprintf("saved the settings to %s (load with --config %s)", settingsFile, settingsFile), nil
}

// settingsConfig returns the session's config with the current method,
// scope, scale, normalisation and weights. Goals and weights go into the
// objectives themselves (pareto) or the svrl weights, so that nothing
// depends on --minimize or --weight.
func settingsConfig(s *session.Session) engine.Config {
	cfg := s.Config
	opts := s.Options
	normalize := opts.Normalize
	cfg.Method, cfg.Scope, cfg.Scale, cfg.Normalize = string(opts.Method), string(opts.Scope), string(opts.Scale), &normalize
	cfg.Computer = string(session.ComputerOf(s.Computer))
	cfg.NormalizeObjectives = ""
	if opts.NormalizeObjectives != engine.NormNone {
		cfg.NormalizeObjectives = string(opts.NormalizeObjectives)
	}
	if opts.Penalty != engine.DefaultPenalty || cfg.Penalty != nil {
		penalty := opts.Penalty
		cfg.Penalty = &penalty
	}
	cfg.Minimize, cfg.Weights = nil, nil
	w := slices.Clone(s.Weights())
	if cfg.Computer == string(engine.ComputerSVRL) {
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

// The root's export commands: each says in the status line what it wrote.

// exportRewards writes the current batch's rewards (e).
func (m *Model) exportRewards() tea.Cmd {
	return m.status.SetNotice(m.common.Session.ExportBatch())
}

// saveSettings saves the current settings (ctrl+s).
func (m *Model) saveSettings() tea.Cmd { return m.status.SetNotice(m.settings.save(m.common.Session)) }
