// Package engine turns batches of trajectories into rewards: it evaluates a
// scorer's objectives on every trajectory, ranks them by Pareto dominance and
// applies one of the reward methods of docs/CONTRACT.md (the table
// methodSpecs, methods.go), batch by batch.
//
// What a trajectory is and how it is scored (its expressions, the scorers,
// constraints and gates) is engine/scoring, below it, and the config that
// builds a RewardComputer (New) is engine/setup, below it too; what
// describes a computed result (batch statistics, trends, group summaries) is
// engine/diagnose, above it. The package imports no UI code; the dashboard
// and the CLI only show what it computes.
package engine
