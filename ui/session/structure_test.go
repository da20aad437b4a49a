package session

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestStructureJobWhileAppending: a structure job (a constraint edited
// while following) runs off the event loop while an update appends to the
// session's trajectories: it reads the trajectories as they were (go test
// -race: no write to what it reads) and evaluates them all.
func TestStructureJobWhileAppending(t *testing.T) {
	var b strings.Builder
	for i := range 6 {
		fmt.Fprintf(&b, `{"id":"t%d","group":"g%d","metadata":{"a":%d}}`+"\n", i, i/2, i%2)
	}
	res, err := loaders.Read(strings.NewReader(b.String()), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open("run.jsonl", engine.Config{Method: "grpo", Objectives: []engine.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}}, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := s.NewStructureJob([]string{"a > 0.5"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		j.Run(context.Background())
		close(done)
	}()
	for i := range 100 {
		s.Trajectories.Append(scoring.Trajectory{ID: fmt.Sprint("new", i)})
	}
	<-done
	if err := s.ApplyStructure(j); err != nil || len(s.Evaluation.Valid) != 6 {
		t.Errorf("the job's evaluation: %v, %d trajectories, want 6", err, len(s.Evaluation.Valid))
	}
}
