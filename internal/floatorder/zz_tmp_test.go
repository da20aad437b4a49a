package floatorder

import (
	"encoding/binary"
	"math"
	"os"
	"testing"
)

func BenchmarkZZRanksPC(b *testing.B) {
	raw, err := os.ReadFile("/tmp/pc.bin")
	if err != nil {
		b.Skip()
	}
	x := make([]float64, len(raw)/8)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	order, codes, avg := make([]int32, len(x)), make([]uint32, len(x)), make([]float64, len(x))
	var buf RankBuffers
	for b.Loop() {
		Ranks(x, order, codes, avg, &buf)
	}
}
