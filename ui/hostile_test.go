package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// hostile are text from data that would act on a terminal: one of each
// class of control the dashboard must neutralise. None is an SGR sequence,
// which the styles' own would hide.
var hostile = []string{
	"\x1b[2J\x1b[H",              // CSI: clear the screen
	"\x1b]0;pwned\x07",           // OSC 0: window title
	"\x1b]2;pwned\x1b\\",         // OSC 2: window title, ST-terminated
	"\x1b]52;c;cHduZWQ=\x07",     // OSC 52: write the clipboard
	"\x1bPq#0;2;0;0;0\x1b\\",     // DCS: sixel
	"\a\b\r\x00\x7f",             // C0 and DEL
	"\u009b2J\u0090x\u009c",      // C1: CSI, DCS, ST
	"\u009d0;pwned\u009c",        // C1 OSC
	"abc\u202eevil\u202c\u2066x", // bidi override and isolate
	"\xff\xfe",                   // not UTF-8
}

// hostileTrajectories puts the hostile strings in every field of text:
// ids, groups, responses, metadata keys and values.
func hostileTrajectories() []scoring.Trajectory {
	var ts []scoring.Trajectory
	for i := range 24 {
		h := hostile[i%len(hostile)]
		md := map[string]any{"accuracy": float64(i%5) / 4, "safety": float64(i%3) / 2, "key" + h: "value" + h, "note": h}
		if i%4 > 0 {
			md["len"] = float64(i)
		}
		ts = append(ts, scoring.Trajectory{
			ID:       fmt.Sprintf("id%d%s", i, h),
			Batch:    int64(i % 2),
			Group:    "g" + hostile[i%3],
			Response: []byte(fmt.Sprintf("%q", "response "+h+"\nsecond line\t"+h)),
			Done:     true,
			Metadata: md,
			LoaderState: scoring.LoaderState{
				Source: "runs" + h + ".jsonl",
				Line:   i + 1,
			},
		})
	}
	return ts
}

// styleSGR matches the SGR sequences the styles write (bold, reverse,
// colours): the only escape sequences the dashboard may print.
var styleSGR = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkNoControls fails when view, once the styles' SGR sequences are
// taken out, holds a control character, an escape or a bidi control.
func checkNoControls(t *testing.T, where, view string) {
	t.Helper()
	rest := styleSGR.ReplaceAllString(view, "")
	if !utf8.ValidString(rest) {
		t.Errorf("%s: output is not UTF-8: %q", where, rest)
	}
	for _, r := range rest {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c {
			i := strings.IndexRune(rest, r)
			t.Errorf("%s: control %U reaches the terminal, in %q", where, r, rest[max(i-60, 0):min(i+60, len(rest))])
			return
		}
	}
}

// TestHostileDataNeverReachesTheTerminal opens a session on hostile
// trajectories, objective names and file names, then looks at every tab,
// the opened trajectory, the Pareto details, the weights line, the status
// line, in colour and without.
func TestHostileDataNeverReachesTheTerminal(t *testing.T) {
	t.Chdir(t.TempDir()) // e writes the export here
	for _, noColor := range []bool{true, false} {
		cfg := setup.Config{Objectives: []setup.ObjectiveConfig{
			{Name: "acc" + hostile[0], Expr: "metadata.accuracy"},
			{Name: "safe" + hostile[3], Expr: "metadata.safety", Goal: "min"},
			{Name: "len" + hostile[8], Expr: "metadata.len"}, // missing from some rows: the cause names it
		}}
		res := &loaders.Result{Trajectories: hostileTrajectories(), Skipped: 1,
			SkipReasons: []*loaders.LineError{{Path: "in" + hostile[1] + ".jsonl", Line: 3, Col: 2, Msg: "bad " + hostile[6]}}}
		s, err := session.Open("runs"+hostile[2]+".jsonl, "+hostile[4], cfg, res, []string{"caller" + hostile[7]})
		if err != nil {
			t.Fatal(err)
		}
		m := NewModel(s, noColor)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		where := fmt.Sprintf("noColor %v", noColor)
		for tab := range m.tabs {
			press(m, fmt.Sprint(tab+1))
			checkNoControls(t, fmt.Sprintf("%s, tab %d", where, tab+1), m.View().Content)
			for _, k := range []tea.KeyPressMsg{{Code: tea.KeyRight}, uitest.KeyPress("down"), uitest.KeyPress("]"), uitest.KeyPress("x"), uitest.KeyPress("y")} {
				m.Update(k)
				checkNoControls(t, fmt.Sprintf("%s, tab %d after %s", where, tab+1, k), m.View().Content)
			}
		}
		press(m, "5", "enter")
		checkNoControls(t, where+", opened trajectory", m.View().Content)
		press(m, "down", "down", "down", "esc", "/")
		for _, r := range "id" {
			m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		checkNoControls(t, where+", filter", m.View().Content)
		press(m, "esc", "esc", "w")
		checkNoControls(t, where+", weights", m.View().Content)
		press(m, "esc", "e")
		checkNoControls(t, where+", status after export", m.View().Content)
		press(m, "?")
		checkNoControls(t, where+", full help", m.View().Content)
	}
}
