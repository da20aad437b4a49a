package loaders

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/csvread"
	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// pickedReadings streams path with opts and a Pick of keys, and reads it
// again whole without one: the trajectories of both, those of the
// stream with their (recycled) Picked and Metadata copied.
func pickedReadings(t *testing.T, path string, opts Options, pick *scoring.Pick) (picked, whole []scoring.Trajectory) {
	t.Helper()
	opts.Pick = func(*scoring.Trajectory) *scoring.Pick { return pick }
	res, err := Stream([]string{path}, opts, func(ts []scoring.Trajectory) error {
		for _, tr := range ts {
			tr.Picked, tr.Metadata = slices.Clone(tr.Picked), maps.Clone(tr.Metadata)
			picked = append(picked, tr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	opts.Pick = nil
	all, err := Load([]string{path}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != all.Skipped || len(picked) != len(all.Trajectories) {
		t.Fatalf("picked: %d trajectories, %d skipped; whole: %d, %d", len(picked), res.Skipped, len(all.Trajectories), all.Skipped)
	}
	return picked, all.Trajectories
}

// asPicked returns the metadata value x as a picked value: what the
// scorer makes of either is the same.
func asPicked(x any) scoring.PickedValue {
	switch v := x.(type) {
	case nil:
		return scoring.PickedValue{}
	case float64:
		return scoring.PickedValue{Number: v, Kind: scoring.PickedNumber}
	case bool:
		return scoring.PickedBool(v)
	}
	return scoring.PickedValue{Kind: scoring.PickedOther}
}

// checkPicked checks that the trajectories read with pick are those read
// whole, their picked values those of the whole metadata (a value that is
// no number kept aside: PickedOthers), and that some
// came picked (the first blocks, read before the Pick is known, do not);
// picked trajectories have a response only when pick asks for it.
func checkPicked(t *testing.T, picked, whole []scoring.Trajectory, pick *scoring.Pick) {
	t.Helper()
	n := 0
	for i, tr := range picked {
		w := whole[i]
		if tr.ID != w.ID || tr.Line != w.Line || tr.Offset != w.Offset || tr.Batch != w.Batch || tr.StepCount != w.StepCount || tr.Done != w.Done || tr.Group != w.Group {
			t.Fatalf("trajectory %d: %s, want %s", i, brief(tr), brief(w))
		}
		if tr.Picked == nil {
			if brief(tr) != brief(w) {
				t.Fatalf("trajectory %d: %s, want %s", i, brief(tr), brief(w))
			}
			continue
		}
		n++
		if tr.Pick != pick || tr.Metadata != nil || len(tr.Picked) != len(pick.Keys) {
			t.Fatalf("trajectory %d: pick %v, metadata %v, %d values", i, tr.Pick, tr.Metadata, len(tr.Picked))
		}
		wantResponse := ""
		if pick.Response {
			wantResponse = string(w.Response)
		}
		if string(tr.Response) != wantResponse {
			t.Fatalf("trajectory %d: response %s, want %q", i, tr.Response, wantResponse)
		}
		for k, key := range pick.Keys {
			got, want := tr.Picked[k], asPicked(w.Metadata[key])
			if got.Kind != want.Kind || math.Float64bits(got.Number) != math.Float64bits(want.Number) {
				t.Errorf("trajectory %d, %s: picked %+v, want %+v (%#v)", i, key, got, want, w.Metadata[key])
			}
			// A value that is no number is kept aside, for the message.
			if other, ok := tr.PickedOthers[k]; got.Kind == scoring.PickedOther && other != w.Metadata[key] || got.Kind != scoring.PickedOther && ok {
				t.Errorf("trajectory %d, %s: kept aside as %#v, want %#v", i, key, other, w.Metadata[key])
			}
		}
	}
	if n == 0 {
		t.Errorf("none of %d trajectories picked", len(picked))
	}
}

// TestCSVPicked: once the scorer picks its keys, CSV rows carry the values
// of those columns that their metadata would hold (numbers, nan and
// infinities, bools as 1 or 0, text, empty cells), no metadata map, and no response
// unless asked for; rejected rows in between change nothing.
func TestCSVPicked(t *testing.T) {
	cells := []string{"0.25", "nan", "", "text", "1e400", " 7 ", "+3", "0x1p3", "-0", "1.5x", "true", "False", " TRUE ", "tRUE", "yes"}
	var b strings.Builder
	b.WriteString("id,batch,response,o1,o2,tag\n")
	for i := range 8*csvread.BlockRows + 5 {
		batch := fmt.Sprint(i % 3)
		if i%1001 == 1000 {
			batch = "x"
		}
		fmt.Fprintf(&b, "t%d,%s,\"r \"\"%d\"\"\",%s,%d.5,tag%d\n", i, batch, i, cells[i%len(cells)], -i, i)
	}
	path := filepath.Join(t.TempDir(), "in.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, response := range []bool{false, true} {
		pick := &scoring.Pick{Keys: []string{"o2", "zz", "o1", "tag"}, Response: response}
		picked, whole := pickedReadings(t, path, Options{SkipInvalid: true}, pick)
		checkPicked(t, picked, whole, pick)
	}
}

// pickedRow is a Parquet row of every scalar type as flat metadata, and
// a metadata struct.
type pickedRow struct {
	ID       string         `parquet:"id"`
	Batch    float64        `parquet:"batch"`
	Response string         `parquet:"response,optional"`
	O1       *float64       `parquet:"o1,optional"`
	O2       int32          `parquet:"o2"`
	O3       uint64         `parquet:"o3"`
	Flag     bool           `parquet:"flag"`
	Tag      string         `parquet:"tag"`
	Metadata *pickedMembers `parquet:"metadata,optional"`
}

type pickedMembers struct {
	M1 float32 `parquet:"m1"`
	M2 *string `parquet:"m2,optional"`
	M3 int64   `parquet:"m3"`
}

// TestParquetPicked: once the scorer picks its keys, Parquet rows carry
// the values of those columns and members that their metadata would hold
// (every scalar type, nulls, a null struct), no metadata map, and no
// response unless asked for; rejected rows in between change nothing.
func TestParquetPicked(t *testing.T) {
	rows := make([]pickedRow, 6*parquetread.BlockRows+9)
	for i := range rows {
		o1 := float64(i) / 4
		text := fmt.Sprint("m", i)
		rows[i] = pickedRow{ID: fmt.Sprint("t", i), Batch: float64(i % 3), Response: fmt.Sprintf("r \"%d\"", i), O2: int32(-i), O3: uint64(i) << 40, Flag: i%2 == 0, Tag: text,
			Metadata: &pickedMembers{M1: float32(i) / 8, M3: int64(i) - 5}}
		switch i % 5 {
		case 0:
			rows[i].O1 = &o1
		case 1:
			rows[i].Metadata = nil
		case 2:
			rows[i].Metadata.M2 = &text
		}
		if i%1001 == 1000 {
			rows[i].Batch = 0.5
		}
	}
	path := writeParquet(t, "picked.parquet", rows, parquet.MaxRowsPerRowGroup(5000))
	for _, response := range []bool{false, true} {
		pick := &scoring.Pick{Keys: []string{"o3", "m1", "zz", "o1", "o2", "flag", "tag", "m2", "m3"}, Response: response}
		picked, whole := pickedReadings(t, path, Options{SkipInvalid: true}, pick)
		// The row groups are read on every core: on a loaded machine all
		// can be read before the first row gives the Pick. Read again.
		for try := 0; try < 3 && !slices.ContainsFunc(picked, func(tr scoring.Trajectory) bool { return tr.Picked != nil }); try++ {
			picked, whole = pickedReadings(t, path, Options{SkipInvalid: true}, pick)
		}
		checkPicked(t, picked, whole, pick)
	}
}

// TestParquetNotPickable: metadata a map may hold any key, and a name
// given as a column and a member is each row's error: such files are
// read into maps whatever the Pick, with the same trajectories and errors.
func TestParquetNotPickable(t *testing.T) {
	maps := make([]mapRow, parquetread.BlockRows+3)
	for i := range maps {
		maps[i] = mapRow{ID: fmt.Sprint("t", i), Metadata: map[string]float64{"accuracy": float64(i)}}
	}
	path := writeParquet(t, "map.parquet", maps)
	pick := &scoring.Pick{Keys: []string{"accuracy"}}
	picked, whole := pickedReadings(t, path, Options{}, pick)
	for i := range picked {
		if picked[i].Picked != nil || brief(picked[i]) != brief(whole[i]) {
			t.Fatalf("trajectory %d: %s (picked %v), want %s", i, brief(picked[i]), picked[i].Picked, brief(whole[i]))
		}
	}

	dups := make([]dupRow, parquetread.BlockRows+3)
	path = writeParquet(t, "dup.parquet", dups)
	for _, opts := range []Options{{}, {Pick: func(*scoring.Trajectory) *scoring.Pick { return pick }}} {
		_, err := Stream([]string{path}, opts, func([]scoring.Trajectory) error { return nil })
		checkLineError(t, err, path+`:1: metadata.accuracy: given both as a column and in the metadata column`)
	}
}
