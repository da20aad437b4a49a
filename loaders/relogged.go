package loaders

import (
	"fmt"
	"hash/maphash"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
)

// TRL logs the same rollouts again under a new step: GRPOTrainer's _logs
// are deques (maxlen generation_batch_size) that log() writes to
// completions_{step:05d}.parquet at every logging step and never clears,
// while _prepare_inputs generates only every steps_per_generation *
// num_iterations micro-steps (trl/trainer/grpo_trainer.py, read at
// huggingface/trl f2cd57710ae345ea6428ae95363267fcf38a3dc8). With
// num_iterations 2, or steps_per_generation above
// gradient_accumulation_steps, and logging_steps 1, consecutive tables
// hold one generation's rows, only step changed: read as they are, the
// run's batches, trends, prompts and health count it twice.

// Relogged is an input left out as repeating the one read before it
// (Options.RelogField): its records, in order, are that input's, every
// field but the relog field equal.
type Relogged struct {
	// Path is the input left out and Step its first record's batch;
	// OfStep is the first record's batch of the input first read with
	// those records.
	Path   string
	Step   int64
	OfStep int64
}

// maxRelogSteps is how many steps ReloggedWarning names.
const maxRelogSteps = 5

// ReloggedWarning says which steps were left out as repeating the
// rollouts of an earlier one (Relogged), "" for none: "steps 2, 4 repeat
// the rollouts logged at steps 1, 3: TRL logs a generation again until
// the next one (num_iterations / steps_per_generation); left out
// (completions_00002.parquet, ...)".
func (r *Result) ReloggedWarning() string { return RelogWarning(r.Relogged) }

// RelogWarning is Result.ReloggedWarning of the inputs relogged, those a
// follower's updates left out (Update.Relogged) among them.
func RelogWarning(relogged []Relogged) string {
	if len(relogged) == 0 {
		return ""
	}
	var steps, of, paths []string
	for _, rl := range relogged {
		steps = append(steps, strconv.FormatInt(rl.Step, 10))
		paths = append(paths, rl.Path)
		if s := strconv.FormatInt(rl.OfStep, 10); !slices.Contains(of, s) {
			of = append(of, s)
		}
	}
	return fmt.Sprintf("%s %s %s the rollouts logged at %s %s: TRL logs a generation again until the next one (num_iterations / steps_per_generation); left out (%s)",
		english.Plural(len(steps), "step"), listSome(steps), english.Verb(len(steps), "repeats", "repeat"), english.Plural(len(of), "step"), listSome(of), listSome(paths))
}

// listSome joins the first maxRelogSteps of items, with how many in all
// when there are more.
func listSome(items []string) string {
	if len(items) <= maxRelogSteps {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s, … (%d in all)", strings.Join(items[:maxRelogSteps], ", "), len(items))
}

// relogCheck finds the inputs whose records repeat the previous input's
// (Options.RelogField), from a hash of each record: the input's records
// are held while they equal the previous input's, position by position,
// and handed on from the first that does not; an input that ends still
// equal, as long as the one before, is left out. An input whose first
// record differs from the previous input's, the usual case, holds none.
type relogCheck struct {
	field string
	// h hashes the records, its seed set once.
	h maphash.Hash
	// clone says that the records handed to wrap's func are reused once
	// it returns (Stream): held ones are copied.
	clone bool
	// prev and cur are the hashes of the previous input's records and of
	// the current one's so far; prevStep is the step of the input the
	// previous records were first read from.
	prev, cur []uint64
	prevStep  int64
	// firstStep is the current input's first record's batch.
	firstStep int64
	matching  bool
	held      []scoring.Trajectory
	found     []Relogged
}

func newRelogCheck(field string, clone bool) *relogCheck {
	c := &relogCheck{field: field, clone: clone}
	c.h.SetSeed(maphash.MakeSeed())
	return c
}

// of returns what the next input's records are handed to: each, through
// wrap; each itself for a nil c or a nil each (Load, whose input's
// records end checks in its Result).
func (c *relogCheck) of(each func([]scoring.Trajectory) error) func([]scoring.Trajectory) error {
	if c == nil || each == nil {
		return each
	}
	return c.wrap(each)
}

// end ends the input at path, read into res when each is nil (Load):
// its records, held or in res, are left out when they repeat the
// previous input's whole (finish).
func (c *relogCheck) end(path string, each func([]scoring.Trajectory) error, res *Result) error {
	if each != nil {
		return c.finish(path, each)
	}
	var kept []scoring.Trajectory
	keep := func(ts []scoring.Trajectory) error {
		if kept == nil {
			kept = ts // spares copying an input that repeats nothing
		} else {
			kept = append(kept, ts...)
		}
		return nil
	}
	if err := c.wrap(keep)(res.Trajectories); err != nil {
		return err
	}
	if err := c.finish(path, keep); err != nil {
		return err
	}
	res.Trajectories = kept
	return nil
}

// wrap returns next, given the records of one input, holding them while
// they repeat the previous input's.
func (c *relogCheck) wrap(next func([]scoring.Trajectory) error) func([]scoring.Trajectory) error {
	c.cur, c.held, c.matching = c.cur[:0], nil, true
	return func(ts []scoring.Trajectory) error {
		if len(c.cur) == 0 && len(ts) > 0 {
			c.firstStep = ts[0].Batch
		}
		if !c.matching {
			for k := range ts {
				c.cur = append(c.cur, c.hash(&ts[k]))
			}
			return next(ts)
		}
		for k := range ts {
			n := len(c.cur)
			c.cur = append(c.cur, c.hash(&ts[k]))
			if n < len(c.prev) && c.prev[n] == c.cur[n] {
				continue
			}
			c.matching = false
			for k++; k < len(ts); k++ {
				c.cur = append(c.cur, c.hash(&ts[k]))
			}
			if held := c.held; len(held) > 0 {
				c.held = nil
				if err := next(held); err != nil {
					return err
				}
			}
			return next(ts)
		}
		for _, t := range ts {
			if c.clone {
				t.Metadata, t.Picked, t.PickedOthers = maps.Clone(t.Metadata), slices.Clone(t.Picked), maps.Clone(t.PickedOthers)
			}
			c.held = append(c.held, t)
		}
		return nil
	}
}

// finish ends the input at path, whose records went through wrap's
// next: it hands on the records held unless they repeat the previous
// input's whole, in which case it leaves them out and notes it.
func (c *relogCheck) finish(path string, next func([]scoring.Trajectory) error) error {
	if c.matching && len(c.cur) == len(c.prev) && len(c.held) > 0 {
		c.found = append(c.found, Relogged{Path: path, Step: c.firstStep, OfStep: c.prevStep})
		c.held = nil
		return nil
	}
	held := c.held
	c.held = nil
	if len(c.cur) > 0 {
		c.prev, c.cur = c.cur, c.prev
		c.prevStep = c.firstStep
	}
	if len(held) > 0 {
		return next(held)
	}
	return nil
}

// hash returns the hash of t's record but its relog field (and what the
// loader sets by position or by expression: its ID and batch): its
// group, response, done and step count, and its metadata, the keys in
// any order, a NaN equal to any NaN.
func (c *relogCheck) hash(t *scoring.Trajectory) uint64 {
	h := &c.h
	h.Reset()
	h.WriteString(t.Group)
	h.WriteByte(0)
	h.Write(t.Response)
	h.WriteByte(0)
	writeBool(h, t.Done)
	writeFloat(h, float64(t.StepCount))
	sum := h.Sum64()
	for key, value := range t.Metadata {
		if key == c.field {
			continue
		}
		h.Reset()
		h.WriteString(key)
		h.WriteByte(0)
		writeValue(h, value)
		sum ^= h.Sum64() // the keys' order is the map's
	}
	for k, p := range t.Picked {
		h.Reset()
		h.WriteString(strconv.Itoa(k))
		writeFloat(h, p.Number)
		h.WriteByte(byte(p.Kind))
		writeValue(h, t.PickedOthers[k])
		sum ^= h.Sum64()
	}
	return sum
}

// writeValue writes a metadata value, with its type, to h.
func writeValue(h *maphash.Hash, v any) {
	switch v := v.(type) {
	case nil:
		h.WriteByte('n')
	case float64:
		h.WriteByte('f')
		writeFloat(h, v)
	case string:
		h.WriteByte('s')
		h.WriteString(v)
	case bool:
		h.WriteByte('b')
		writeBool(h, v)
	default:
		h.WriteByte('o')
		fmt.Fprintf(h, "%#v", v)
	}
}

func writeFloat(h *maphash.Hash, x float64) {
	if math.IsNaN(x) {
		x = math.NaN()
	}
	bits := math.Float64bits(x)
	var b [8]byte
	for i := range b {
		b[i] = byte(bits >> (8 * i))
	}
	h.Write(b[:])
}

func writeBool(h *maphash.Hash, b bool) {
	if b {
		h.WriteByte(1)
	} else {
		h.WriteByte(0)
	}
}
