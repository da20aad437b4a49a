package loaders

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/csvread"
)

// TestCSVRowsInBlocks: rows converted on other goroutines and taken in
// blocks give what reading row by row gives: the first bad row's error,
// or, skipping, every bad row in order (a malformed row, found by the
// reader, and a bad cell, found by the converter) and the trajectories
// around them with their default IDs, lines and offsets, across blocks,
// a quoted cell over two lines included; a reading stopped by its
// consumer ends the reading.
func TestCSVRowsInBlocks(t *testing.T) {
	var text strings.Builder
	text.WriteString("batch,note,score\n")
	type row struct{ line, batch int }
	var good []row
	var bad []string
	line := 2
	for i := range 3*csvread.BlockRows + 11 {
		switch {
		case i%997 == 5 || i == csvread.BlockRows-1:
			fmt.Fprintf(&text, "0.5,x,1\n")
			bad = append(bad, fmt.Sprintf("%d:1: batch: must be an integer", line))
		case i%1009 == 7 || i == csvread.BlockRows:
			fmt.Fprintf(&text, "1,x\n")
			bad = append(bad, fmt.Sprintf("%d:0: row has 2 fields, header has 3", line))
		case i%500 == 3:
			fmt.Fprintf(&text, "%d,\"two\nlines\",%d\n", i%7, i)
			good = append(good, row{line, i % 7})
			line++
		default:
			fmt.Fprintf(&text, "%d,n%d,%d\n", i%7, i, i)
			good = append(good, row{line, i % 7})
		}
		line++
	}
	_, err := readString("in.csv", text.String(), Options{})
	if err == nil || !strings.Contains(err.Error(), ":"+strings.SplitN(bad[0], ": ", 2)[0]) {
		t.Fatalf("err = %v, want %s", err, bad[0])
	}
	res, err := readString("in.csv", text.String(), Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trajectories) != len(good) || res.Skipped != len(bad) {
		t.Fatalf("%d trajectories, %d skipped; want %d, %d", len(res.Trajectories), res.Skipped, len(good), len(bad))
	}
	for k, e := range res.SkipReasons {
		if msg := fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg); !strings.HasPrefix(msg, bad[k]) {
			t.Errorf("skipped %d: %s, want %s", k, msg, bad[k])
		}
	}
	input := text.String()
	for i, tr := range res.Trajectories {
		if tr.Line != good[i].line || tr.ID != strconv.Itoa(i) || tr.Batch != int64(good[i].batch) {
			t.Fatalf("trajectory %d: line %d, ID %s, batch %d; want line %d, ID %d, batch %d", i, tr.Line, tr.ID, tr.Batch, good[i].line, i, good[i].batch)
		}
		if input[tr.Offset-1] != '\n' || strings.Count(input[:tr.Offset], "\n")+1 != tr.Line {
			t.Fatalf("trajectory %d: offset %d is not the start of its line %d", i, tr.Offset, tr.Line)
		}
	}

	stopped := errors.New("enough")
	if _, err := read(strings.NewReader(input), "in.csv", 0, Options{SkipInvalid: true}, 0, func([]scoring.Trajectory) error { return stopped }); !errors.Is(err, stopped) {
		t.Errorf("stopped by the consumer: %v", err)
	}
}
