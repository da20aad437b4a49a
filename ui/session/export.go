package session

import (
	"fmt"
	"io"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/output"
)

// ExportJob is an export of the current batch's rewards (e), taken of the
// session as it is on the event loop and run off it (Run): with the group
// filter on, the run without the filter is computed again, a pass over the
// whole run.
type ExportJob struct {
	shown *engine.Result
	// unfiltered and kept are the run without the group filter and what
	// the filter kept, unfiltered nil when the filter is off.
	unfiltered *engine.Evaluation
	kept       []bool
	scorer     scoring.Scorer
	fields     []string
	// step, members and ids are the batch's, taken on the event loop: a
	// followed update may move the session's trajectories while the job
	// writes.
	step    int64
	members []int
	ids     []string
}

// ExportJob returns the export of the current batch as the session shows
// it now.
func (s *Session) ExportJob() *ExportJob {
	b := s.CurrentBatch()
	j := &ExportJob{shown: s.Result, scorer: s.Computer.Scorer, fields: slices.Clone(s.Fields), step: b.Step,
		members: slices.Clone(b.Members), ids: make([]string, len(b.Members))}
	for k, i := range b.Members {
		j.ids[k] = s.Trajectories.At(i).ID
	}
	if s.Filter.On {
		j.unfiltered, j.kept = s.Filter.unfiltered, s.Filter.Kept
	}
	return j
}

// Step is the step the job exports.
func (j *ExportJob) Step() int64 { return j.step }

// Run writes the batch's rewards, as compute writes them (one JSON record
// per trajectory, in input order), to a new file in the current
// directory, rewardlens-step<K>-<method>.jsonl or, when that exists, the
// first free of -2, -3... (never replacing a file), and says what it
// wrote and where. When no trajectory of the run is valid it writes
// nothing and fails with compute's error (invalid.NoValid): every reward
// would be a neutral 0, no result. With the group filter on, that is of
// the run without the filter, as compute checks it before filtering: a
// filter that keeps no group writes every record not kept. It only reads
// the session's evaluations and result, which are safe for concurrent
// reads, and what the job took.
func (j *ExportJob) Run() (string, error) {
	res := j.shown
	if j.unfiltered != nil {
		// As compute --filter-groups writes it: the score, ranks and
		// validity of the run without the filter, the rewards with it,
		// and the kept marks.
		res = j.unfiltered.Prepare(j.shown.Options, nil)
		res.Rewards = j.shown.Rewards
	}
	if err := invalid.NoValid(res, j.scorer, j.fields); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	name := fmt.Sprintf("rewardlens-step%d-%s.jsonl", j.step, j.shown.Options.Method)
	written, err := output.WriteNewFile(name, func(w io.Writer) error {
		var buf []byte
		for k, i := range j.members {
			if j.unfiltered != nil {
				buf = output.AppendRewardJSONKept(buf[:0], []byte(j.ids[k]), res, j.kept, i)
			} else {
				buf = output.AppendRewardJSON(buf[:0], []byte(j.ids[k]), res, i)
			}
			if _, err := w.Write(append(buf, '\n')); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	// The path first: on a narrow screen the status line cuts the end.
	return fmt.Sprintf("wrote %s: the rewards of step %d (%d trajectories)", written, j.step, len(j.members)), nil
}
