package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/components/statusline"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestExportTwiceGivesTwoFiles presses e twice on the same batch: the
// second export goes to -2, the first stays, the status line names each,
// even at 80 columns.
func TestExportTwiceGivesTwoFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	m := newTestModel(t, 80, 24)
	press(m, "e")
	first, err := os.ReadFile("rewardlens-step0-pareto.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	press(m, "e")
	if v := screen(m); !strings.Contains(v, "wrote rewardlens-step0-pareto-2.jsonl") {
		t.Errorf("the status line does not name the second file:\n%s", v)
	}
	second, err := os.ReadFile("rewardlens-step0-pareto-2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile("rewardlens-step0-pareto.jsonl"); string(again) != string(first) || string(second) != string(first) {
		t.Error("the first export changed, or the second holds other rewards")
	}
	if n := strings.Count(string(first), "\n"); n != 128 {
		t.Errorf("the export holds %d records, want the batch's 128", n)
	}
	entries, _ := os.ReadDir(".")
	if len(entries) != 2 {
		t.Errorf("%d files after two exports, want 2", len(entries))
	}
}

// TestExportNoticeExpires: the status line's "wrote ..." goes after
// statusline.NoticeLifetime; a second export's notice outlives the
// first's expiry.
func TestExportNoticeExpires(t *testing.T) {
	t.Chdir(t.TempDir())
	defer func(d time.Duration) { statusline.NoticeLifetime = d }(statusline.NoticeLifetime)
	statusline.NoticeLifetime = time.Millisecond
	m := newTestModel(t, 120, 40)
	// e, then its command's message: the notice and its expiry.
	export := func() tea.Cmd {
		m.Update(uitest.KeyPress("e"))
		_, expiry := m.Update(m.exportNext())
		return expiry
	}
	first, second := export(), export()
	if first == nil || second == nil {
		t.Fatal("an export's notice has no expiry")
	}
	m.Update(first())
	if v := screen(m); !strings.Contains(v, "wrote rewardlens-step0-pareto-2.jsonl") {
		t.Errorf("the first export's expiry cleared the second's notice:\n%s", v)
	}
	m.Update(second())
	if v := screen(m); strings.Contains(v, "wrote") {
		t.Errorf("the notice did not expire:\n%s", v)
	}
}

// TestExportFilterKeepingNoGroup: with the group filter on and every
// group of zero spread, compute --filter-groups writes every record, not
// kept (its check of validity comes before the filter); so does e,
// rather than refusing as if nothing were valid.
func TestExportFilterKeepingNoGroup(t *testing.T) {
	const recs = `{"id":"x0","group":"x","batch":0,"metadata":{"a":1,"b":1}}
{"id":"x1","group":"x","batch":0,"metadata":{"a":1,"b":2}}
{"id":"z0","group":"z","batch":0,"metadata":{"a":0,"b":1}}
{"id":"z1","group":"z","batch":0,"metadata":{"a":0,"b":4}}
`
	s := uitest.TextSession(t, recs)
	if err := s.SetFilterGroups("a"); err != nil {
		t.Fatal(err)
	}
	m := openModel(s, 160, 40)
	t.Chdir(t.TempDir())
	press(m, "e")
	data, err := os.ReadFile("rewardlens-step0-grpo.jsonl")
	if err != nil {
		t.Fatalf("no export: %v\n%s", err, screen(m))
	}
	if got := strings.Count(string(data), `"kept":false`); got != 4 {
		t.Errorf("%d records not kept, want the 4 of the run:\n%s", got, data)
	}
}

// TestExportPartialStepSaysSo: following, e on the newest step while it
// is probably still being written (fewer rows than the step before, that
// came while following) says that the file holds it in part; e on a
// whole step does not.
func TestExportPartialStepSaysSo(t *testing.T) {
	t.Chdir(t.TempDir())
	m, _ := newLiveModel(t)
	_, step20 := sampleSteps(t, 20, 21)
	m.Update(liveMsg{loaders.Update{Trajectories: step20[:15]}, true})
	m.Settle()
	press(m, "e")
	help := func() string {
		press(m, "?")
		defer press(m, "esc")
		return strings.Join(strings.Fields(screen(m)), " ")
	}
	if v := help(); !strings.Contains(v, "wrote rewardlens-step20-") || !strings.Contains(v, "step 20 is probably read in part") {
		t.Errorf("the export of the step being written does not say it is partial:\n%s", screen(m))
	}
	press(m, "[", "e")
	if v := help(); !strings.Contains(v, "wrote rewardlens-step19-") || strings.Contains(v, "read in part: export") {
		t.Errorf("the export of a whole step is said partial, or not named:\n%s", screen(m))
	}
}

// TestExportFilterOffTheEventLoop: with the group filter on, e computes
// the run without the filter (Prepare, a pass over the whole run) and
// writes off the event loop: after the key alone nothing is written and
// the status line says the export is under way, as it says to a second
// e; once the command's message lands, the file is written and said; at
// 80 and 160 columns.
func TestExportFilterOffTheEventLoop(t *testing.T) {
	const recs = `{"id":"x0","group":"x","batch":0,"metadata":{"a":1,"b":1}}
{"id":"x1","group":"x","batch":0,"metadata":{"a":0,"b":2}}
{"id":"z0","group":"z","batch":0,"metadata":{"a":0,"b":1}}
{"id":"z1","group":"z","batch":0,"metadata":{"a":0,"b":4}}
`
	for _, width := range []int{80, 160} {
		s := uitest.TextSession(t, recs)
		if err := s.SetFilterGroups("a"); err != nil {
			t.Fatal(err)
		}
		m := openModel(s, width, 40)
		t.Chdir(t.TempDir())
		m.Update(uitest.KeyPress("e"))
		if _, err := os.Stat("rewardlens-step0-grpo.jsonl"); err == nil {
			t.Fatalf("at %d columns e wrote on the event loop", width)
		}
		if v := screen(m); !strings.Contains(v, "exporting step 0…") {
			t.Errorf("at %d columns the status line does not say the export is under way:\n%s", width, v)
		}
		m.Update(uitest.KeyPress("e"))
		if v := screen(m); !strings.Contains(v, "an export is under way") {
			t.Errorf("at %d columns a second e does not say that one is under way:\n%s", width, v)
		}
		settle(m)
		data, err := os.ReadFile("rewardlens-step0-grpo.jsonl")
		if err != nil {
			t.Fatalf("no export once its command ran: %v\n%s", err, screen(m))
		}
		if got := strings.Count(string(data), `"kept":false`); got != 2 {
			t.Errorf("%d records not kept, want z's 2:\n%s", got, data)
		}
		if v := screen(m); !strings.Contains(v, "✓ wrote rewardlens-step0-grpo.jsonl") {
			t.Errorf("at %d columns the status line does not say what the export wrote:\n%s", width, v)
		}
		if entries, _ := os.ReadDir("."); len(entries) != 1 {
			t.Errorf("%d files after one export and a second e while it ran, want 1", len(entries))
		}
	}
}
