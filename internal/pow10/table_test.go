package pow10

import (
	"math/big"
	"testing"
)

// TestTable checks Ceil and Floor against exact arithmetic for every k.
func TestTable(t *testing.T) {
	if Min+len(ceil)-1 != Max {
		t.Fatalf("the table covers 1e%d to 1e%d, want 1e%d to 1e%d", Min, Min+len(ceil)-1, Min, Max)
	}
	for k := Min; k <= Max; k++ {
		// 10^k×2^(127-⌊k·log2(10)⌋) = num/den
		num, den := big.NewInt(1), big.NewInt(1)
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(k, -k))), nil)
		if k >= 0 {
			num = p
		} else {
			den = p
		}
		if sh := 127 - k*108853>>15; sh >= 0 {
			num.Lsh(num, uint(sh))
		} else {
			den.Lsh(den, uint(-sh))
		}
		floor, rem := new(big.Int).QuoRem(num, den, new(big.Int))
		ceil := new(big.Int).Set(floor)
		if rem.Sign() != 0 {
			ceil.Add(ceil, big.NewInt(1))
		}
		for _, c := range []struct {
			name string
			got  Uint128
			want *big.Int
		}{{"Ceil", Ceil(k), ceil}, {"Floor", Floor(k), floor}} {
			got := new(big.Int).SetUint64(c.got.Hi)
			got.Lsh(got, 64).Or(got, new(big.Int).SetUint64(c.got.Lo))
			if got.Cmp(c.want) != 0 || c.want.BitLen() != 128 {
				t.Errorf("%s(%d) = %#x, want %#x", c.name, k, got, c.want)
			}
		}
	}
}

// TestFloorMatchesStrconv checks a few entries of Floor against strconv's
// own table (internal/strconv/pow10tab.go).
func TestFloorMatchesStrconv(t *testing.T) {
	for _, c := range []struct {
		k    int
		want Uint128
	}{
		{-64, Uint128{0xa87fea27a539e9a5, 0x3f2398d747b36224}},
		{-23, Uint128{0xc16d9a0095928a27, 0x75b7053c0f178293}},
		{-1, Uint128{0xcccccccccccccccc, 0xcccccccccccccccc}},
		{0, Uint128{1 << 63, 0}},
		{23, Uint128{0xa968163f0a57b400, 0}},
		{64, Uint128{0xc2781f49ffcfa6d5, 0x3cbf6b71c76b25fb}},
	} {
		if got := Floor(c.k); got != c.want {
			t.Errorf("Floor(%d) = %#x, want %#x", c.k, got, c.want)
		}
	}
}
