// Package scoring is what a trajectory is and how it is scored, below the
// engine: the Trajectory and where it was read (LoaderState, Pick), the
// objectives' expressions (Expression, run by engine/sandbox), the record
// fields set by expression (RecordFields), the Scorer with its pareto and
// svrl implementations, and the constraints and gates that wrap one
// (WithStructure). The loaders build trajectories with it; the engine
// evaluates a scorer on them, ranks them and computes their rewards.
package scoring

import (
	"encoding/json"
	"fmt"
)

// Trajectory is one rollout, as read from a JSON object, a JSONL line or a
// CSV row (docs/CONTRACT.md, Trajectories).
type Trajectory struct {
	// ID names the trajectory; loaders default it to the trajectory's 0-based
	// position in its file.
	ID string
	// Batch is the training step the rollout belongs to; loaders default it
	// to the index of the file among the inputs.
	Batch int64
	// Group is the prompt the rollout answers (GRPO's group).
	Group string
	// StepCount is the number of agent steps taken, >= 0.
	StepCount int64
	// Response is the raw JSON of the response (nil when absent or null).
	Response json.RawMessage
	// Done reports whether the episode finished.
	Done bool
	// Lean reports that Response and Metadata (or Picked) were dropped to
	// save memory (see DropBody); loaders.Reread reads them again. It is
	// the holder's mark, not the loader's, and next to Done it takes no
	// room of its own.
	Lean bool
	// Metadata maps names to float64, string, bool or nil values.
	Metadata map[string]any
	// LoaderState is what the loader that read the trajectory keeps of it.
	LoaderState
}

// LoaderState is a loader's bookkeeping of a trajectory it read: where
// its record is, and the picked values that stand in for its metadata. A
// trajectory made in code leaves it zero.
type LoaderState struct {
	// Source and Line say where the trajectory was read (for messages).
	Source string
	Line   int
	// Element is the record's position, from 1, in its JSON array when
	// the line does not name it: the element starts on the line where
	// the one before it (or the "[") ends, as in a one-line array
	// (Python's json.dump); else 0.
	Element int
	// Offset is where the trajectory's record starts in Source, in bytes
	// of its text (after gzip decompression, a byte order mark counted): a
	// JSONL line, a JSON array's element, a CSV record (or the blank lines
	// before it). Parquet rows leave it 0.
	Offset int64
	// Format is the format of Source ("jsonl", "json" or "csv") when the
	// record can be read again from the file at Offset (loaders.Reread),
	// else "": standard input, gzip files, Parquet files and trajectories
	// made in code cannot.
	Format string
	// Pick, when not nil, says that the trajectory was read with a Pick
	// (loaders.Options.Pick): Metadata is nil, Picked[k] holds the value
	// of Pick.Keys[k], and Response is nil unless Pick.Response. Only a
	// scorer whose own Pick that is sees the trajectory as it would whole.
	Pick   *Pick
	Picked []PickedValue
	// PickedOthers holds, by index in Picked, the picked values that are
	// not numbers (PickedOther) as Metadata would hold them, so that the
	// trajectory's invalidity can say what the value was; nil when none
	// is (SetPickedOther).
	PickedOthers map[int]any
}

// DropBody drops t's Response and Metadata (or Picked), the bulk of a
// trajectory, when they can be read again from its file (Format is set),
// marking t Lean, and reports whether it did. A caller done evaluating t
// keeps only what identifies it, and rereads the rest on demand.
func (t *Trajectory) DropBody() bool {
	if t.Format == "" {
		return false
	}
	t.Response, t.Metadata, t.Pick, t.Picked, t.PickedOthers, t.Lean = nil, nil, nil, nil, nil, true
	return true
}

// ResponseText returns the response as text: a JSON string is unquoted,
// any other JSON value is returned as written, null or absent is "".
func (t *Trajectory) ResponseText() string {
	if len(t.Response) == 0 || string(t.Response) == "null" {
		return ""
	}
	if t.Response[0] == '"' {
		var s string
		if json.Unmarshal(t.Response, &s) == nil {
			return s
		}
	}
	return string(t.Response)
}

// Where returns "source:line" for messages about t, or "source:element
// N" for an element of a JSON array that shares its line (Element),
// counted from 1 as W&B and Parquet rows are.
func (t *Trajectory) Where() string {
	switch {
	case t.Source == "":
		return fmt.Sprintf("trajectory %q", t.ID)
	case t.Element > 0:
		return fmt.Sprintf("%s:element %d", t.Source, t.Element)
	}
	return fmt.Sprintf("%s:%d", t.Source, t.Line)
}
