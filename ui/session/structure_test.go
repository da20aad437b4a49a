package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
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
	s, err := Open("run.jsonl", setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}}, res, nil)
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

// TestStructureJobRereadsChecked: a constraint over a field no objective
// reads makes the job read the lean trajectories again; a record edited in
// place since the load (the same size, id and group, its objective now
// another value) is refused with where and what changed, as the detail's
// reread is (Session.RereadChecked), not evaluated on the edited text.
func TestStructureJobRereadsChecked(t *testing.T) {
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, `{"id":"t%d","group":"g%d","batch":0,"metadata":{"a":%d,"m":%d}}`+"\n", i, i/4, i%2, i%3)
	}
	text := b.String()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}}, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Trajectories.At(0).Lean {
		t.Fatal("the trajectories were not kept lean: nothing is read again")
	}
	edited := strings.Replace(text, `"id":"t0","group":"g0","batch":0,"metadata":{"a":0`, `"id":"t0","group":"g0","batch":0,"metadata":{"a":1`, 1)
	if len(edited) != len(text) || edited == text {
		t.Fatal("the edit does not keep the file's size")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := s.NewStructureJob([]string{"metadata.m > 0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if j.Rereads != 8 {
		t.Fatalf("the job reads %d trajectories again, want 8", j.Rereads)
	}
	j.Run(context.Background())
	before := s.Evaluation
	err = s.ApplyStructure(j)
	if want := path + `:1: trajectory "t0" changed since it was loaded: a is now 1`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want it to say %q", err, want)
	}
	if s.Evaluation != before || len(s.Config.Constraints) != 0 {
		t.Error("a refused reread changed the evaluation or the constraints")
	}
}
