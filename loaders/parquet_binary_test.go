package loaders

import (
	"testing"
)

// parquetBinaryRow has binary columns: BYTE_ARRAY without the STRING
// annotation ([]byte) and FIXED_LEN_BYTE_ARRAY ([16]byte, as a UUID's).
type parquetBinaryRow struct {
	ID       []byte   `parquet:"id"`
	Group    string   `parquet:"group"`
	Blob     []byte   `parquet:"blob"`
	UUID     [16]byte `parquet:"uuid"`
	Accuracy float64  `parquet:"accuracy"`
}

// A binary column holds bytes, not text: neither one no objective reads
// nor one read as a field or metadata is held to UTF-8; its bytes are read
// as they are, as before the UTF-8 check of text columns.
func TestParquetBinaryColumnsReadAsTheyAre(t *testing.T) {
	blob := []byte{0x00, 0xbc, 0xff}
	uuid := [16]byte{0xde, 0xad, 0xbe, 0xef, 0xff, 0xfe}
	rows := []parquetBinaryRow{
		{[]byte("a\xff"), "g", blob, uuid, 1},
		{[]byte("b"), "g", []byte{0x12, 0x34}, [16]byte{}, 0},
	}
	path := writeParquet(t, "bin.parquet", rows)
	for _, skip := range []bool{false, true} {
		res, err := Load([]string{path}, Options{SkipInvalid: skip})
		if err != nil {
			t.Fatalf("skip %v: binary columns: %v", skip, err)
		}
		if len(res.Trajectories) != 2 || res.Skipped != 0 {
			t.Fatalf("skip %v: %d trajectories, %d skipped, want 2, 0", skip, len(res.Trajectories), res.Skipped)
		}
		first := res.Trajectories[0]
		if first.ID != "a\xff" || first.Metadata["blob"] != string(blob) || first.Metadata["uuid"] != string(uuid[:]) {
			t.Errorf("skip %v: read id %q, blob %q, uuid %q; want the bytes as they are", skip, first.ID, first.Metadata["blob"], first.Metadata["uuid"])
		}
	}
}
