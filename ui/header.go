package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// header is the header line: the source, the batch, the method and the
// other settings, the valid/invalid counts and the health badge.
type header struct {
	// valid and invalid count the trajectories of the current result,
	// kept from one session change to the next rather than counted on
	// every frame.
	valid, invalid int
	// findings are the current result's health findings, unless updating:
	// they are being computed (background.go).
	findings []engine.Finding
	updating bool
	// live is follow mode's tag (live.go), "" without --follow.
	live string
}

// refresh recounts the valid and invalid trajectories and takes the
// health findings.
func (h *header) refresh(s *Session) {
	if h.updating = !s.healthReady(); !h.updating {
		h.findings = s.Findings()
	}
	h.valid, h.invalid = 0, 0
	for _, ok := range s.Result.Valid {
		if ok {
			h.valid++
		} else {
			h.invalid++
		}
	}
}

// view renders the line. It never wraps: when it is too long the computer
// goes first (it is fixed for the session), then the source (a long list
// of file names takes at most a third of the line anyway), then the end of
// the line is cut, but for the health badge, which always ends it.
func (h header) view(c *Common, width int) string {
	s, st := c.Session, c.Styles
	field := func(k, v string) string { return st.HeaderKey.Render(k) + " " + st.HeaderValue.Render(v) }
	normalize := "off"
	if s.Result.Options.Normalize {
		normalize = "on"
	}
	invalid := fmt.Sprintf("%d invalid", h.invalid)
	if h.invalid > 0 {
		invalid = st.Invalid.Render("! " + invalid)
	}
	var (
		source = st.Header.Render(ansi.Truncate(textsafe.Line(s.Source), max(width/3, 1), "…"))
		batch  = st.HeaderValue.Render(fmt.Sprintf("batch %d/%d", s.Batch+1, len(s.Result.Batches))) + " " +
			st.HeaderKey.Render(fmt.Sprintf("step %d", s.CurrentBatch().Step))
		method   = field("method:", string(s.Result.Options.Method))
		computer = field("computer:", string(computerOf(s.Computer)))
		settings = field("scope:", string(s.Result.Options.Scope)) + headerSeparator + field("normalize:", normalize)
		counts   = st.HeaderValue.Render(fmt.Sprintf("%d valid", h.valid)) + " " + invalid
		health   = headerSeparator + healthBadge(st, h.findings)
	)
	if h.updating {
		health = headerSeparator + updatingBadge(st)
	}
	if h.live != "" {
		batch = liveBadge(st, h.live) + " " + batch
	}
	room := max(width-ansi.StringWidth(health), 0)
	var line string
	for _, fields := range [][]string{
		{source, batch, method, computer, settings, counts},
		{source, batch, method, settings, counts},
		{batch, method, settings, counts},
	} {
		if line = strings.Join(fields, headerSeparator); ansi.StringWidth(line) <= room {
			return line + health
		}
	}
	return ansi.Truncate(ansi.Truncate(line, room, "…")+health, width, "")
}

// headerSeparator separates the header's fields: two spaces, as a visible
// separator would push the longest method name and the counts past 120
// columns.
const headerSeparator = "  "

// computerOf names the scorer of c.
func computerOf(c *engine.RewardComputer) engine.Computer {
	if _, ok := c.Scorer.(*engine.SVRLScorer); ok {
		return engine.ComputerSVRL
	}
	return engine.ComputerPareto
}
