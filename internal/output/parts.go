package output

import (
	"runtime"
	"slices"
	"sync"

	"github.com/rewardlens/rewardlens/engine"
)

// RecordParts formats compute's records (AppendRewardJSON's) in two steps,
// so that the larger part of the work need not wait for the rewards: the
// parts that the evaluation alone sets (the ID, batch and group, and the
// objectives, whose numbers take the longest to format) are formatted in
// the background while the rewards are computed, which on one large group
// leaves a processor idle; AppendRecords then adds the rewards between them.
//
// The records are taken in chunks of a fixed size. The background goroutines
// format chunks in order until their text reaches partsBudget, so that the
// parts of a very large input do not take memory the writing would then
// wait for; AppendRecords formats the records of the other chunks whole.
type RecordParts struct {
	ev    *engine.Evaluation
	id    func(i int) []byte
	chunk int
	parts []chunkParts
	// budget is partsBudget but in tests.
	budget int
	// kept, when not nil, marks each record "kept" (MarkKept).
	kept []bool

	mu      sync.Mutex
	next    int  // the next chunk to format in the background
	bytes   int  // the text of the chunks formatted so far
	stopped bool // set by Stop: no more chunks are taken
}

// chunkParts are the parts of the records of one chunk, lo to lo+n-1:
// record lo+k's head is text[cuts[2k]:cuts[2k+1]] and its objectives
// text[cuts[2k+1]:cuts[2k+2]].
type chunkParts struct {
	done chan struct{} // closed once text and cuts are set
	text []byte
	cuts []int
}

// rewardsBytes is about the most that appendRecordRewards appends: four
// keys, three numbers of up to 24 characters and a rank.
const rewardsBytes = 136

// partsBudget bounds the text of the parts formatted in the background:
// all of it for a few hundred thousand records.
const partsBudget = 64 << 20

// StartRecordParts starts formatting, on up to GOMAXPROCS-1 goroutines, the
// parts of the records of ev's trajectories, chunk records at a time; id
// returns trajectory i's ID. Neither ev's trajectories, their objectives
// nor their IDs may change until the records are written; the rewards may
// be computed meanwhile, and must be from ev. Stop stops the formatting.
func StartRecordParts(ev *engine.Evaluation, id func(i int) []byte, chunk int) *RecordParts {
	return startRecordParts(ev, id, chunk, partsBudget)
}

func startRecordParts(ev *engine.Evaluation, id func(i int) []byte, chunk, budget int) *RecordParts {
	n := ev.N()
	p := &RecordParts{ev: ev, id: id, chunk: chunk, parts: make([]chunkParts, (n+chunk-1)/chunk), budget: budget}
	for c := range p.parts {
		p.parts[c].done = make(chan struct{})
	}
	// The rewards are computed meanwhile, on one processor at least.
	for range min(max(runtime.GOMAXPROCS(0)-1, 1), len(p.parts)) {
		go p.formatChunks()
	}
	return p
}

// formatChunks formats chunks in order until none is left to take.
func (p *RecordParts) formatChunks() {
	perRecord := 0 // the bytes per record of the last chunk formatted
	for {
		c, ok := p.take()
		if !ok {
			return
		}
		cp := &p.parts[c]
		lo, hi := c*p.chunk, min((c+1)*p.chunk, p.ev.N())
		// Made about the right size, the text is not copied as it grows.
		cp.text = make([]byte, 0, (perRecord+8)*(hi-lo))
		cp.cuts = make([]int, 1, 2*(hi-lo)+1)
		for i := lo; i < hi; i++ {
			cp.text = appendRecordHead(cp.text, p.id(i), p.ev, i)
			cp.cuts = append(cp.cuts, len(cp.text))
			cp.text = appendRecordObjectives(cp.text, p.ev, i)
			cp.cuts = append(cp.cuts, len(cp.text))
		}
		perRecord = len(cp.text) / (hi - lo)
		p.mu.Lock()
		p.bytes += len(cp.text)
		p.mu.Unlock()
		close(cp.done)
		// A chunk takes a millisecond or two. The goroutines that compute
		// the rewards, which the writing waits for, would otherwise wait
		// for the scheduler's 10 ms time slice to take the processor.
		runtime.Gosched()
	}
}

// take returns the next chunk to format in the background, if any.
func (p *RecordParts) take() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.next == len(p.parts) || p.bytes >= p.budget {
		return 0, false
	}
	p.next++
	return p.next - 1, true
}

// Stop stops the background formatting: the chunks under way are
// finished, no other is started. Call it once the rewards are computed,
// before the first AppendRecords.
func (p *RecordParts) Stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
}

// MarkKept has AppendRecords add "kept": kept[i] after each record's
// validity (and logged advantage): what a group filter kept
// (--filter-groups).
func (p *RecordParts) MarkKept(kept []bool) { p.kept = kept }

// AppendRecords appends the records of trajectories lo to hi-1, each
// followed by sep, res holding the rewards computed from the evaluation of
// StartRecordParts: what AppendRewardJSON(buf, id(i), res, i) appends for
// each. It waits for the parts of a chunk being formatted.
func (p *RecordParts) AppendRecords(buf []byte, res *engine.Result, lo, hi int, sep string) []byte {
	for lo < hi {
		c := lo / p.chunk
		end := min((c+1)*p.chunk, hi)
		if c >= p.next { // p.next no longer changes once stopped
			for i := lo; i < end; i++ {
				buf = appendRecordHead(buf, p.id(i), res.Evaluation, i)
				buf = appendRecordRewards(buf, res, i, p.kept)
				buf = append(appendRecordObjectives(buf, res.Evaluation, i), sep...)
			}
			lo = end
			continue
		}
		cp := &p.parts[c]
		<-cp.done
		// The buffer is made to size at once: grown by append, it would
		// take twice the memory, each page of it new to the process.
		first, last := 2*(lo-c*p.chunk), 2*(end-c*p.chunk)
		buf = slices.Grow(buf, cp.cuts[last]-cp.cuts[first]+(end-lo)*(rewardsBytes+len(sep)))
		for i := lo; i < end; i++ {
			k := 2 * (i - c*p.chunk)
			buf = append(buf, cp.text[cp.cuts[k]:cp.cuts[k+1]]...)
			buf = appendRecordRewards(buf, res, i, p.kept)
			buf = append(buf, cp.text[cp.cuts[k+1]:cp.cuts[k+2]]...)
			buf = append(buf, sep...)
		}
		lo = end
	}
	return buf
}
