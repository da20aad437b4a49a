package common

// Prefetcher is a tab whose first view of a session takes long enough to
// be worth preparing before its visit (the Pareto tab's projection of a
// large batch, the Prompts tab's analysis): once a session, when the first result's background work
// (the health) starts, the root gives the tab, hidden, its size and the
// SessionChangedMsg it would get on its visit, and runs the jobs it
// starts, so that the visit finds the view drawn. PrefetchHidden says
// whether the tab wants that for the session as it is.
type Prefetcher interface {
	PrefetchHidden() bool
}
