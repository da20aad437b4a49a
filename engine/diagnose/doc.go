// Package diagnose describes a computed result, above the engine: each
// batch's statistics (BatchStats: the objectives', the scores' and the
// rewards' summaries, the correlations, the fronts, the feasible shares),
// the trend points the Steps tab and the health checks read (Trends, and
// TrendsSince while following), the per-group summaries of the Groups tab
// (GroupSummaries), the Pareto tab's points (Project), the dead signal by
// a task metric (DeadSignalOf) and the statistics of each source. It reads
// an engine.Result and keeps what it computes in the engine's caches
// (engine.Cache), held by what each value depends on: the evaluation, the
// set of weights, or the result.
package diagnose
