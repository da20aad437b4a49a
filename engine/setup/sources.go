package setup

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Sources (docs/CONTRACT.md, Objectives with structure): with source_by,
// each trajectory is scored by its source's objectives and weights
// ([sources.NAME] in the config; the top-level objectives for a source
// without a section), by a scoring.SourceScorer.

// SourceConfig is one source's section of the config: its objectives,
// and weights overriding theirs by name.
type SourceConfig struct {
	Objectives []ObjectiveConfig  `toml:"objective" json:"objective"`
	Weights    map[string]float64 `toml:"weights,omitempty" json:"weights,omitempty"`
}

// SourceNames returns the names of cfg's sources in the order the config
// declares them (SourceOrder), those it does not order after, by name.
func (cfg Config) SourceNames() []string {
	names := make([]string, 0, len(cfg.Sources))
	for _, name := range cfg.SourceOrder {
		if _, ok := cfg.Sources[name]; ok && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Sources)) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// newSourceScorer builds the source scorer of cfg (SourceBy set).
func (cfg Config) newSourceScorer() (*scoring.SourceScorer, error) {
	if len(cfg.Sources) == 0 {
		return nil, fmt.Errorf("%s %q: no [sources.NAME] section gives a source's objectives", scoring.SourceBySetting, cfg.SourceBy)
	}
	by, err := scoring.CompileExpression(scoring.SourceBySetting, cfg.SourceBy)
	if err != nil {
		return nil, err
	}
	names := cfg.SourceNames()
	s := scoring.NewSourceScorer(by, names)
	for _, name := range names {
		src := cfg.Sources[name]
		sub := cfg
		sub.Objectives, sub.Sources, sub.SourceBy = src.Objectives, nil, ""
		sub.Weights = maps.Clone(cfg.Weights)
		if sub.Weights == nil {
			sub.Weights = map[string]float64{}
		}
		maps.Copy(sub.Weights, src.Weights)
		sub.Weights = onlyNames(sub.Weights, src.Objectives)
		sub.Minimize = onlyMinimized(cfg.Minimize, src.Objectives)
		p, err := sub.paretoScorer()
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", name, err)
		}
		// The section's own weights name its objectives: the filter
		// above is for the top level's, which are the union's.
		if err := (Config{Weights: src.Weights}).checkNames(p.Objectives()); err != nil {
			return nil, fmt.Errorf("source %s: %w", name, err)
		}
		if err := s.AddSource(p); err != nil {
			return nil, err
		}
	}
	if len(cfg.Objectives) > 0 {
		sub := cfg
		sub.Sources, sub.SourceBy = nil, ""
		sub.Weights = onlyNames(cfg.Weights, cfg.Objectives)
		sub.Minimize = onlyMinimized(cfg.Minimize, cfg.Objectives)
		p, err := sub.paretoScorer()
		if err != nil {
			return nil, err
		}
		if err := s.AddSource(p); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// onlyNames returns the weights of the objectives objs names.
func onlyNames(weights map[string]float64, objs []ObjectiveConfig) map[string]float64 {
	out := map[string]float64{}
	for _, o := range objs {
		if w, ok := weights[o.Name]; ok {
			out[o.Name] = w
		}
	}
	return out
}

// onlyMinimized returns the names of minimize that objs has.
func onlyMinimized(minimize []string, objs []ObjectiveConfig) []string {
	var out []string
	for _, name := range minimize {
		if slices.ContainsFunc(objs, func(o ObjectiveConfig) bool { return o.Name == name }) {
			out = append(out, name)
		}
	}
	return out
}
