package common

import "testing"

// TestPreparedProtocol: a refresh takes nothing before the job runs nor
// while it runs (the lock held), and leaves it held for a later one; once
// the job ends it takes what the job made, from what Start was given, and
// holds none after.
func TestPreparedProtocol(t *testing.T) {
	var p Prepared[[]int]
	if p.Take() != nil || p.Held() != nil {
		t.Fatal("the zero Prepared holds something")
	}
	prepare := p.Start([]int{1})
	if p.Take() != nil || p.Held() == nil {
		t.Fatal("taken before the job ran, or not held")
	}
	running, finish, ended := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		prepare(func(made *[]int) {
			close(running)
			<-finish
			*made = append(*made, 2)
		})
	}()
	<-running
	if p.Take() != nil || p.Held() == nil {
		t.Fatal("taken while the job runs, or not held")
	}
	close(finish)
	<-ended
	made := p.Take()
	if made == nil || len(*made) != 2 || (*made)[0] != 1 || (*made)[1] != 2 {
		t.Fatalf("took %v once the job ended, want [1 2]", made)
	}
	if p.Take() != nil || p.Held() != nil {
		t.Error("still held once taken")
	}
}

// TestPreparedDrop: a Prepared let go of holds none, and a job still
// running for it ends without being taken; one started after is the one
// taken.
func TestPreparedDrop(t *testing.T) {
	var p Prepared[int]
	dropped := p.Start(1)
	p.Drop()
	if p.Held() != nil || p.Take() != nil {
		t.Fatal("held once dropped")
	}
	dropped(func(made *int) { *made = 2 })
	if p.Take() != nil {
		t.Fatal("the dropped job's work was taken")
	}
	p.Start(3)(func(made *int) { *made++ })
	if made := p.Take(); made == nil || *made != 4 {
		t.Fatalf("took %v, want 4", made)
	}
}
