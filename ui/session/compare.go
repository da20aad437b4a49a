package session

// RewardB returns trajectory i's reward under the Compare tab's method B,
// which the Groups and Trajectories tabs show beside the current method's:
// the logged advantage for LoggedMethod, else CompareResult's reward as
// shown (engine.Result.ShownReward). ok
// is false when B is the current method (no second column to show), i has
// no logged advantage, or B's result is not computed yet (a tab showing
// the column says it is computing: ShowsRewardB and CompareResult).
func (s *Session) RewardB(i int) (reward float64, ok bool) {
	switch {
	case s.Result == nil || s.CompareMethod == s.Result.Options.Method:
		return 0, false
	case s.CompareMethod == LoggedMethod:
		if s.Evaluation.Logged == nil {
			return 0, false
		}
		return s.Evaluation.Logged[i], true
	}
	b := s.CompareResult()
	if b == nil {
		return 0, false
	}
	return b.ShownReward(i), true
}

// ShowsRewardB reports whether the tabs show a column of method B's
// rewards: B is not the current method, and is computable or logged.
func (s *Session) ShowsRewardB() bool {
	if s.Result == nil || s.CompareMethod == s.Result.Options.Method {
		return false
	}
	return s.CompareMethod != LoggedMethod || s.Evaluation.Logged != nil
}

// RewardBPending reports whether the tabs show a column of method B's
// rewards that is still being computed off the event loop.
func (s *Session) RewardBPending() bool {
	return s.ShowsRewardB() && s.CompareMethod != LoggedMethod && s.CompareResult() == nil
}
