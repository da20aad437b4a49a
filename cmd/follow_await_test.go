package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestStatsFollowAwaitsMissingPath: a followed directory that does not
// exist yet, nor its parent (a watcher started before the trainer's first
// dump), is waited for, which is said once; once it holds a dump, its
// layout is recognised and its steps are printed. Without --follow, a
// missing path stays an error.
func TestStatsFollowAwaitsMissingPath(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	root := t.TempDir()
	dir := filepath.Join(root, "run", "rollouts")
	if _, errOut, code := run(t, "", "stats", dir); code != exitBadInput || !strings.Contains(errOut, "no such file") {
		t.Errorf("without --follow: status %d, stderr %q", code, errOut)
	}
	f := startFollowing(t, "stats", "--follow", dir)
	f.awaitErr(t, "waiting for "+dir+" to appear")
	// The directory first, empty for a while, as verl's os.makedirs
	// makes it: still waited for. The dump is renamed into it whole.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * awaitPoll)
	data, err := os.ReadFile(filepath.Join(verlSetting("legacy_duplicate"), "1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(root, "1.jsonl")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "1.jsonl")); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 1  trajectories 12 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr %q", code, f.errOut.String())
	}
	errOut := f.errOut.String()
	if strings.Count(errOut, "waiting for") != 1 || !strings.Contains(errOut, "read as verl rollout dumps") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

// TestDashboardFollowAwaitsMissingPath: the dashboard's --follow waits for
// a path that does not exist yet as stats --follow does, before its
// screen opens, and an interrupt ends the wait.
func TestDashboardFollowAwaitsMissingPath(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	dir := filepath.Join(t.TempDir(), "notyet")
	f := startFollowing(t, "--follow", dir)
	f.awaitErr(t, "waiting for "+dir+" to appear")
	if code := f.stop(); code != exitInterrupted {
		t.Errorf("status %d, stderr %q", code, f.errOut.String())
	}
}

// TestFollowMissingPathChecksFlagsFirst: settings wrong whatever the
// inputs (an unknown method, an expression that does not compile) are
// errors at once, status 2, before waiting for a followed path, with
// stats --follow as with the dashboard's --follow; settings that need the
// layout's objectives to make sense (a weight, a constraint, a priority on
// verl's score) are waited with.
func TestFollowMissingPathChecksFlagsFirst(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "notyet")
	for _, args := range [][]string{
		{"stats", "--follow", "--method", "bogus", dir},
		{"stats", "--follow", "--objective", "a=(", dir},
		{"stats", "--follow", "--from", "verll", dir},
		{"--follow", "--method", "bogus", dir},
	} {
		type result struct {
			errOut string
			code   int
		}
		done := make(chan result, 1)
		go func() {
			_, errOut, code := run(t, "", args...)
			done <- result{errOut, code}
		}()
		select {
		case r := <-done:
			if r.code != exitBadInput || strings.Contains(r.errOut, "waiting for") {
				t.Errorf("%v: status %d, stderr %q; want 2 at once", args, r.code, r.errOut)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still waiting for the path after 10 s", args)
		}
	}
	f := startFollowing(t, "stats", "--follow", "--weight", "score=2", "--constraint", "score >= 0", "--method", "lexicographic", "--priority", "score", dir)
	f.awaitErr(t, "waiting for "+dir+" to appear")
	f.stop()
}

// TestStatsFollowCSVHeaderFirst: a followed CSV file of its header alone,
// as a logger writes it first, holds no record yet: it is waited for
// (with --from auto, its layout too) and its rows are read as they come;
// it was the error "no trajectories in FILE". Not followed, it stays that
// error.
func TestStatsFollowCSVHeaderFirst(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "run.csv")
	if err := os.WriteFile(path, []byte("id,batch,group,accuracy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, "", "stats", "--objective", "accuracy=metadata.accuracy", path); code != exitBadInput || !strings.Contains(errOut, "no trajectories in "+path) {
		t.Errorf("not followed: status %d, stderr %q", code, errOut)
	}
	f := startFollowing(t, "stats", "--follow", "--objective", "accuracy=metadata.accuracy", dir)
	f.awaitErr(t, "waiting for a first record")
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("a,0,g,1\nb,0,g,0\n")
	w.Close()
	f.await(t, "step 0  trajectories 2 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr %q", code, f.errOut.String())
	}
}

// TestFollowMissingPathChecksGateSyntax: a gate whose expression does not
// parse is an error at once, before waiting for a followed path, with the
// error its compile gives once the objectives are known; a gate that
// parses waits with the layout, which may bring its objective.
func TestFollowMissingPathChecksGateSyntax(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "notyet")
	file := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(file, []byte(`{"id":"a","group":"g","metadata":{"score":1}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, compiled, code := run(t, "", "stats", "--objective", "score=metadata.score", "--gate", "score: score >", file)
	want := `rewardlens: expression gate score = "score >": line 1, column 7: unexpected token EOF` + "\n"
	if code != exitBadInput || compiled != want {
		t.Fatalf("the gate compiled with its objective: status %d, stderr %q, want %q", code, compiled, want)
	}
	for _, args := range [][]string{
		{"stats", "--follow", "--gate", "score: score >", dir},
		{"--follow", "--gate", "score: score >", dir},
	} {
		done := make(chan string, 1)
		go func() {
			_, errOut, code := run(t, "", args...)
			if code != exitBadInput {
				errOut = fmt.Sprintf("status %d: %s", code, errOut)
			}
			done <- errOut
		}()
		select {
		case errOut := <-done:
			if errOut != want {
				t.Errorf("%v: stderr %q, want %q at once", args, errOut, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still waiting for the path after 10 s", args)
		}
	}
	f := startFollowing(t, "stats", "--follow", "--gate", "score: score > 0", dir)
	f.awaitErr(t, "waiting for "+dir+" to appear")
	f.stop()
}

// TestFollowReadsConfigOnce: following a path not there yet, the config
// file is read once, before the wait: what it says then holds, however
// it changes (or goes) while the path is waited for.
func TestFollowReadsConfigOnce(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	root := t.TempDir()
	config := filepath.Join(root, "run.toml")
	if err := os.WriteFile(config, []byte("method = \"grpo\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "later", "run.jsonl")
	f := startFollowing(t, "stats", "--follow", "--config", config, "--objective", "x=metadata.x", path)
	f.awaitErr(t, "waiting for "+path+" to appear")
	if err := os.WriteFile(config, []byte("method = \"bogus\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"id":"a","batch":0,"group":"g","metadata":{"x":1}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 0  trajectories 1 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr %q", code, f.errOut.String())
	}
}
