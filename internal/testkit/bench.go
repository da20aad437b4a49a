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
// dashboard through on a file of two objectives, from pareto (engine's
// Method values; testkit imports no engine, whose own tests use it).
var SwitchMethods = []string{"pareto-crowding", "gdpo", "rpp-baseline", "rloo-whitened"}
