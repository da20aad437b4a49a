package testkit

import (
	"testing"
	"time"
)

// ReportCPU reports cpu, the CPU time (CPUTime) of b's b.N ops, as the
// metric cpu-ms/op.
func ReportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// SwitchMethods are the methods scripts/bench-dashboard.sh switches the
// dashboard through on a file of two objectives, from pareto. They are
// engine's Method values as text: package engine's own tests read them,
// so testkit cannot import engine, and no package that imports engine
// can hold them for those tests; engine's TestSwitchMethodsFollowTheCycle
// checks them against the dashboard's cycle (engine.MethodsFor).
var SwitchMethods = []string{"pareto-crowding", "gdpo", "rpp-baseline", "rloo-whitened"}
