package loaders

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// brief describes t in one line, for comparisons: fmt prints maps sorted by
// key, NaN as NaN, and %#v tells a number from a string.
func brief(t scoring.Trajectory) string {
	resp := "nil"
	if t.Response != nil {
		resp = string(t.Response)
	}
	return fmt.Sprintf("id=%q batch=%d group=%q steps=%d resp=%s done=%t meta=%#v at %s:%d (element %d)",
		t.ID, t.Batch, t.Group, t.StepCount, resp, t.Done, t.Metadata, t.Source, t.Line, t.Element)
}

// briefs applies brief to every trajectory of res.
func briefs(res *Result) []string {
	var out []string
	for _, t := range res.Trajectories {
		out = append(out, brief(t))
	}
	return out
}

// readString reads input as the file name with opts.
func readString(name, input string, opts Options) (*Result, error) {
	return Read(strings.NewReader(input), name, 0, opts)
}

// want is the brief of a trajectory with the given fields and defaults for
// the rest: batch 0, no group, 0 steps, no response, done, no metadata.
type want struct {
	id      string
	batch   int64
	group   string
	steps   int64
	resp    string // "" for nil
	notDone bool
	meta    map[string]any
	src     string
	line    int
	element int // Trajectory.Element
}

// String returns the brief of the trajectory w describes.
func (w want) String() string {
	t := scoring.Trajectory{ID: w.id, Batch: w.batch, Group: w.group, StepCount: w.steps, Done: !w.notDone,
		Metadata: w.meta, LoaderState: scoring.LoaderState{Source: w.src, Line: w.line, Element: w.element}}
	if w.meta == nil {
		t.Metadata = map[string]any{}
	}
	if w.resp != "" {
		t.Response = []byte(w.resp)
	}
	return brief(t)
}

// checkTrajectories fails t unless got holds exactly the trajectories of
// wants, in order.
func checkTrajectories(t *testing.T, res *Result, wants []want) {
	t.Helper()
	got := briefs(res)
	if len(got) != len(wants) {
		t.Fatalf("got %d trajectories, want %d:\n%s", len(got), len(wants), strings.Join(got, "\n"))
	}
	for i, w := range wants {
		if got[i] != w.String() {
			t.Errorf("trajectory %d:\n got %s\nwant %s", i, got[i], w)
		}
	}
}

// checkLineError fails t unless err is a *LineError (errors.As) whose text
// is msg.
func checkLineError(t *testing.T, err error, msg string) {
	t.Helper()
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *LineError, want %q", err, err, msg)
	}
	if err.Error() != msg {
		t.Errorf("error\n got %q\nwant %q", err.Error(), msg)
	}
}

// readCase is an input that must load as want.
type readCase struct {
	name  string
	input string
	want  []want
}

// runReadCases reads each case's input as the file name and checks what
// it loads.
func runReadCases(t *testing.T, name string, cases []readCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			res, err := readString(name, tt.input, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkTrajectories(t, res, tt.want)
		})
	}
}

// errorCase is an input that must fail with err.
type errorCase struct {
	name  string
	input string
	err   string
}

// runErrorCases reads each case's input as the file name and checks its
// error.
func runErrorCases(t *testing.T, name string, cases []errorCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readString(name, tt.input, Options{})
			checkLineError(t, err, tt.err)
		})
	}
}

// pickedValue returns what a loader picks for the value of key in md.
func pickedValue(md map[string]any, key string) scoring.PickedValue {
	switch x := md[key].(type) {
	case nil:
		return scoring.PickedValue{}
	case float64:
		return scoring.PickedValue{Number: x, Kind: scoring.PickedNumber}
	case bool: // counts 1 or 0
		if x {
			return scoring.PickedValue{Number: 1, Kind: scoring.PickedNumber}
		}
		return scoring.PickedValue{Kind: scoring.PickedNumber}
	}
	return scoring.PickedValue{Kind: scoring.PickedOther}
}

// pathFormat returns the format a reading of the file path finds: format
// when given, else the one detectFormat chooses by its name or its
// (gunzipped) content; "" when the file cannot be read.
func pathFormat(path string, format Format) Format {
	if format != "" {
		return format
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	in, err := openText(f)
	if err != nil {
		return ""
	}
	return detectFormat(path, in.R)
}
