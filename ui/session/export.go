package session

import (
	"fmt"
	"io"

	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/internal/output"
)

// ExportBatch writes the current batch's rewards, as compute writes them
// (one JSON record per trajectory, in input order), to a new file in the
// current directory, rewardlens-step<K>-<method>.jsonl or, when that
// exists, the first free of -2, -3... (never replacing a file), and says
// what it wrote and where. When no trajectory of the run is valid it
// writes nothing and fails with compute's error (invalid.NoValid): every
// reward would be a neutral 0, no result. With the group filter on, that
// is of the run without the filter, as compute checks it before
// filtering: a filter that keeps no group writes every record not kept.
func (s *Session) ExportBatch() (string, error) {
	res := s.Result
	if s.Filter.On {
		// As compute --filter-groups writes it: the score, ranks and
		// validity of the run without the filter, the rewards with it,
		// and the kept marks.
		res = s.Unfiltered().Prepare(s.Result.Options, nil)
		res.Rewards = s.Result.Rewards
	}
	if err := invalid.NoValid(res, s.Computer.Scorer, s.Fields); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	b := s.CurrentBatch()
	name := fmt.Sprintf("rewardlens-step%d-%s.jsonl", b.Step, s.Result.Options.Method)
	written, err := output.WriteNewFile(name, func(w io.Writer) error {
		var buf []byte
		for _, i := range b.Members {
			if s.Filter.On {
				buf = output.AppendRewardJSONKept(buf[:0], []byte(s.Trajectories.At(i).ID), res, s.Filter.Kept, i)
			} else {
				buf = output.AppendRewardJSON(buf[:0], []byte(s.Trajectories.At(i).ID), res, i)
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
	return fmt.Sprintf("wrote %s: the rewards of step %d (%d trajectories)", written, b.Step, len(b.Members)), nil
}
