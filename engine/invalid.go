package engine

// causeCounter counts causes. Invalid trajectories come in runs of one
// cause, whose strings are one string (Evaluation.evaluate builds each
// once): a run is counted before it is added to the map, rather than
// hashing every cause.
type causeCounter struct {
	counts map[string]int
	run    string
	n      int
}

func (c *causeCounter) add(cause string) {
	if c.n > 0 && cause == c.run {
		c.n++
		return
	}
	c.flush()
	c.run, c.n = cause, 1
}

func (c *causeCounter) flush() {
	if c.n == 0 {
		return
	}
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[c.run] += c.n
	c.n = 0
}

// done returns the counts (nil when none were added).
func (c *causeCounter) done() map[string]int {
	c.flush()
	return c.counts
}

// InvalidCauses returns the number of the invalid trajectories among
// members per cause (nil when none is invalid; those Without left out,
// of no cause, not counted).
func (ev *Evaluation) InvalidCauses(members []int) map[string]int {
	var counts causeCounter
	for _, i := range members {
		if ev.Causes[i] != "" {
			counts.add(ev.Causes[i])
		}
	}
	return counts.done()
}
