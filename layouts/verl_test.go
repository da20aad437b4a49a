package layouts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestVerlPeekReadsOnce: the first file is read once for all that the
// verl layout looks at in it: a file rewritten after the first look
// leaves the next as it was.
func TestVerlPeekReadsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "1.jsonl")
	dump := `{"input": "p", "output": "a", "gts": "g", "score": null, "step": 1, "acc": 1, "overlong_reward": "tensor(-0.0002)"}
{"input": "p", "output": "b", "gts": "g", "score": "tensor(0.5)", "step": 1, "acc": 1, "overlong_reward": "tensor(-0.0002)"}
`
	if err := os.WriteFile(path, []byte(dump), 0o644); err != nil {
		t.Fatal(err)
	}
	peek := newFirstRecords(loaders.FileFields{Path: path, Format: "jsonl", Names: []string{"input", "output", "gts", "score", "step", "acc", "overlong_reward"}, Nulls: []string{"score"}})
	if !verlScoreIsText(peek.first, peek) {
		t.Fatal("a null first score, then a text one: not read as text")
	}
	if err := os.WriteFile(path, []byte(`{"input": "p", "output": "a", "gts": "g", "score": 1, "step": 1, "acc": 1, "overlong_reward": 0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := verlRoundedPenalty(peek); got != "tensor(-0.0002)" {
		t.Errorf("the rounded penalty, after the file is rewritten: %q, want the first reading's tensor(-0.0002)", got)
	}
	if n := len(peek.records()); n != 2 {
		t.Errorf("%d records, want 2", n)
	}
}

// TestVerlPeekWithoutPath: a first file without a path gives no records
// and reads nothing.
func TestVerlPeekWithoutPath(t *testing.T) {
	peek := newFirstRecords(loaders.FileFields{})
	if peek.records() != nil || !verlScoreSumsPenalty(peek) || verlRoundedPenalty(peek) != "" {
		t.Error("a first file without a path: records read, or a reading other than the default")
	}
}
