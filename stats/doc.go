// Package stats holds the statistics rewardlens computes over rewards,
// scores and objectives: means and standard deviations that do not
// overflow near the float64 limit, z-scores, average ranks, numpy's linear
// quantiles, summaries, Pearson's, Spearman's and Kendall's tau-b
// correlations, top-k overlap and Freedman-Diaconis histograms.
//
// The functions follow gonum's stat and floats conventions: each states
// its formula, its preconditions and when it panics; where a caller's hot
// loop calls one, it writes into a dst argument rather than allocating.
// The package imports nothing of rewardlens.
package stats
