package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/testkit"
)

// TestStatsFollowFileVanishedUnread: a file that appears in a followed
// directory and is deleted before it was read is a step the run may have
// lost: said on stderr, and following ends with status 2 as with a file
// not read; a temporary file renamed into place (an atomic write, the
// rename's target read) is not said, status 0.
func TestStatsFollowFileVanishedUnread(t *testing.T) {
	shortQuiet(t)
	data, err := os.ReadFile(filepath.Join(verlDir, "2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const said = ": appeared and went before it was read: the rows it held, if any, are missing"

	dir := t.TempDir()
	testkit.CopyWhole(t, verlDir, dir, "1.jsonl")
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 1 ")
	lost := filepath.Join(dir, "2.jsonl")
	if err := os.WriteFile(lost, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(lost); err != nil {
		t.Fatal(err)
	}
	f.awaitErr(t, "rewardlens: "+lost+said+"\n")
	if code := f.stop(); code != exitBadInput || !strings.Contains(f.errOut.String(), "1 followed file not read as following ends, its rows missing: "+lost+said) {
		t.Errorf("a file gone unread: status %d, want %d and it said as following ends; stderr:\n%s", code, exitBadInput, f.errOut.String())
	}

	dir = t.TempDir()
	testkit.CopyWhole(t, verlDir, dir, "1.jsonl")
	f = startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 1 ")
	temp := filepath.Join(dir, "tmp_2.jsonl")
	if err := os.WriteFile(temp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(temp, filepath.Join(dir, "2.jsonl")); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 2 ")
	if code := f.stop(); code != 0 || strings.Contains(f.errOut.String(), "appeared and went") {
		t.Errorf("an atomic write: status %d, want 0 and nothing said; stderr:\n%s", code, f.errOut.String())
	}
}

// TestStatsFollowNotVanished: a temporary file renamed onto a followed
// file (an atomic write, the file reloaded), and a file whose reading
// failed and said so, then deleted (gone, resolved), are not files gone
// unread: status 0, nothing said vanished.
func TestStatsFollowNotVanished(t *testing.T) {
	shortQuiet(t)
	data, err := os.ReadFile(filepath.Join(verlDir, "2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testkit.CopyWhole(t, verlDir, dir, "1.jsonl")
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 1 ")
	temp := filepath.Join(dir, "tmp_write.jsonl")
	if err := os.WriteFile(temp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(temp, filepath.Join(dir, "1.jsonl")); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 2 ")
	bad := filepath.Join(dir, "3.csv")
	if err := os.WriteFile(bad, []byte("id,\xff\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.awaitErr(t, "3.csv")
	if err := os.Remove(bad); err != nil {
		t.Fatal(err)
	}
	f.awaitErr(t, "gone")
	if code := f.stop(); code != 0 || strings.Contains(f.errOut.String(), "appeared and went") || strings.Contains(f.errOut.String(), "not read as following ends") {
		t.Errorf("an atomic write onto a followed file, a failed file deleted: status %d, want 0 and nothing said unread; stderr:\n%s", code, f.errOut.String())
	}
}
