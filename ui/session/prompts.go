package session

import (
	"fmt"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/prompts"
)

// promptColumns returns the prompts' columns of cfg (prompt_by,
// task_metric, pass_threshold) for a scorer of objectives, or nil and
// why not (among them no default task metric): the Prompts tab then
// says why, and the rest of the dashboard works on.
func promptColumns(cfg setup.Config, objectives []scoring.Objective) (*prompts.Columns, error) {
	c, err := prompts.NewColumns(cfg, objectives)
	if err != nil {
		return nil, fmt.Errorf("prompts: %w", err)
	}
	if c.NoDefaultTask != "" {
		return nil, fmt.Errorf("prompts: %s (give --task-metric NAME or EXPR)", c.NoDefaultTask)
	}
	return c, nil
}

// addPrompts reads the prompts and task metrics of ts (before their
// bodies are dropped) into s's columns; a prompt that cannot be read
// leaves the columns out, with the error, for the Prompts tab to show.
func (s *Session) addPrompts(ts []scoring.Trajectory) {
	if s.Prompts == nil {
		return
	}
	if err := s.Prompts.Add(ts); err != nil {
		s.Prompts, s.PromptsErr = nil, err
	}
}

// finishPrompts completes the columns from the session's evaluation.
func (s *Session) finishPrompts() {
	if s.Prompts != nil {
		s.Prompts.Finish(s.Evaluation)
	}
}
