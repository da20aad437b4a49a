//go:build race

package ui

// raceEnabled is set under the race detector, whose sync.Pool drops what
// it is given at random: tests of reused memory skip their counts.
const raceEnabled = true
