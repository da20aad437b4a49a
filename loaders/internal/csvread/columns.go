package csvread

import (
	"bufio"
	"encoding/csv"

	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
)

// Columns returns the named columns of the CSV text br holds, in its
// header's order (namedColumns, as Read names them), and those of ints
// among them (a jsonread.IntegerScan of the first jsonread.IntegerRows
// rows): pandas' to_csv, and W&B's export of a
// table, write a DataFrame's columns in its order, as a W&B table's
// "columns" keep it (TRL's rewards, then its log_extra columns). nil
// when the header cannot be read (the load says why).
func Columns(br *bufio.Reader) (columns, integers []string) {
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, nil
	}
	columns, index := namedColumns(header)
	scan := jsonread.NewIntegerScan(len(columns))
	for n := 0; n < jsonread.IntegerRows; n++ {
		row, err := cr.Read()
		if err != nil {
			break
		}
		for i, at := range index {
			if at < len(row) {
				scan.Add(i, []byte(row[at]))
			}
		}
	}
	return columns, scan.Integers(columns)
}
