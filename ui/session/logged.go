package session

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
)

// loggedCheck is the warning of the logged-advantage check as last said:
// what it was computed on (the evaluation, its size and the trainer
// options) and its note, "warning: ..." or "".
type loggedCheck struct {
	ev      *engine.Evaluation
	n       int
	options engine.Options
	note    string
}

// holds reports whether c was computed on ev, as long as n, under the
// trainer options options.
func (c *loggedCheck) holds(ev *engine.Evaluation, options engine.Options) bool {
	return c.ev == ev && c.n == ev.N() && c.options.Equal(options)
}

// LoggedWarning returns the warning that the logged advantages differ
// from the rewards of the settings on screen as a trainer computes them
// (agreement.LoggedWarning, "warning: ..."), "" when they agree or there
// is no logged advantage. The open's check (agreement.CheckTrainer), which
// also names the settings that reproduce the log, holds until the
// settings or the rows change (a followed run grows); then the rows are
// counted again, over the whole run, and the warning goes once the
// settings on screen reproduce the log.
func (s *Session) LoggedWarning() string {
	ev := s.Evaluation
	if ev == nil || ev.Logged == nil || s.Result == nil {
		return ""
	}
	options := agreement.TrainerOptions(s.Result.Options)
	if s.logged.holds(ev, options) {
		return s.logged.note
	}
	var reuse *engine.Result
	if s.Result.Evaluation == ev && s.Result.Options.Equal(options) {
		reuse = s.Result
	}
	w, _ := agreement.LoggedWarning(ev, options, reuse)
	s.logged = loggedCheck{ev: ev, n: ev.N(), options: options}
	if w != "" {
		s.logged.note = "warning: " + w
	}
	return s.logged.note
}
