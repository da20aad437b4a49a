package common

// IdleRefresher is a tab whose refresh on SessionChangedMsg costs the
// event loop little, its work a command off the loop, kept until the
// session changes in what the work reads (the Prompts tab's analysis, of
// the evaluation and not of the method). While RefreshesWhenIdle, the root
// sends it that message when it computes a result's health in the
// background, shown or not, so that its first visit finds the work done.
type IdleRefresher interface {
	RefreshesWhenIdle() bool
}
