package input

import (
	"sync"

	"github.com/rewardlens/rewardlens/internal/crash"
)

// StartWorkers starts nw goroutines that each take blocks from the
// channel it returns and hand them to the function newWorker made for
// that goroutine (so that each keeps its own scratch state), and returns
// stop, which closes the channel and waits for them. A panic in a worker
// goes through crash.Recover.
func StartWorkers[B any](nw int, newWorker func() func(B)) (work chan B, stop func()) {
	work = make(chan B, nw)
	var wg sync.WaitGroup
	for range nw {
		wg.Add(1)
		go func() {
			defer crash.Recover()
			defer wg.Done()
			handle := newWorker()
			for b := range work {
				handle(b)
			}
		}()
	}
	return work, func() {
		close(work)
		wg.Wait()
	}
}
