package session

import (
	"strconv"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// ResponseText returns t's completion as text: its metadata field that
// the layout names (Config.ResponseField: verl's output, TRL's
// completion), else its response (scoring.Trajectory.ResponseText). t must
// be whole (a lean trajectory read again: RereadChecked). The text is the
// data's: escape it before the terminal.
func (s *Session) ResponseText(t *scoring.Trajectory) string {
	if text, ok := metadataText(t, s.Config.ResponseField); ok {
		return text
	}
	return t.ResponseText()
}

// PromptText returns t's prompt as text: its metadata field that the
// layout names (Config.PromptField: verl's input, TRL's prompt), else ""
// (a plain record's prompt is its group). t must be whole.
func (s *Session) PromptText(t *scoring.Trajectory) string {
	text, _ := metadataText(t, s.Config.PromptField)
	return text
}

// metadataText returns t's metadata field as text, and whether t has it:
// a string as it is, a number or a bool as written, null as "".
func metadataText(t *scoring.Trajectory, field string) (string, bool) {
	if field == "" {
		return "", false
	}
	v, ok := t.Metadata[field]
	if !ok {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", true
}

// ComputerOf names the scorer of c.
func ComputerOf(c *engine.RewardComputer) setup.Computer {
	if _, ok := c.Scorer.(*scoring.SVRLScorer); ok {
		return setup.ComputerSVRL
	}
	return setup.ComputerPareto
}
