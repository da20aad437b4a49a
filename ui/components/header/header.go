// Package header is the dashboard's header line: the source, the batch,
// the method and the other settings, the batch's valid and invalid counts,
// the objectives' goals and the health badge, fitted to the screen's width.
package header

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// Header is the header line: the source, the batch, the method and the
// other settings, the batch's valid/invalid counts, the objectives' goals
// and the health badge.
type Header struct {
	// valid and invalid count the trajectories of the batch on screen,
	// and dropped those the group filter dropped, not invalid data, kept
	// from one session change to the next rather than counted on every
	// frame.
	valid, invalid, dropped int
	// feasible is the batch's share of valid trajectories meeting every
	// constraint (BatchStats.Feasible); constrained says there are
	// constraints, without which the share is not shown.
	feasible    float64
	constrained bool
	// findings are the current result's health findings, unless updating:
	// they are being computed (background.go).
	findings []health.Finding
	updating bool
	// unread are the followed files not read (session.Unread), which the
	// badge says whatever else it reads.
	unread []string
	// Recomputing says a recompute will replace the result shown (the
	// root sets it from a change of the options until the result lands):
	// the badge then reads "◌ recomputing…".
	Recomputing bool
	// Live is follow mode's tag ("LIVE", or why it is paused), "" without
	// --follow.
	Live string
	// widest holds the widths the reserves keep room for, which depend
	// on the options only: measured again (widestOf) only when widestFor
	// changed.
	widest    widths
	widestFor widestKey
}

// widestKey is what widestOf measures from: the result shown (its
// options: the scope, the normalisation and the settings changed), the
// method of the session's options and the methods they allow (m cycles
// through them). The styles' colours change no width.
type widestKey struct {
	result  *engine.Result
	method  engine.Method
	methods []engine.Method
}

// same reports whether k and o measure the same widths.
func (k widestKey) same(o widestKey) bool {
	return k.result == o.result && k.method == o.method && slices.Equal(k.methods, o.methods)
}

// widths are the cells the method and the settings take at their
// widest, whichever method m cycles to and normalisation n gives (View
// keeps the room of each beside the one shown).
type widths struct {
	// method is the longest method name m cycles to.
	method int
	// settings and shortSettings are the scope and the widest
	// normalisation, as "normalize:" and as "norm:".
	settings, shortSettings int
	// changed is the changed settings under the method that names most
	// of them (rloo has no normalisation).
	changed int
}

// Refresh takes the shown batch's valid, invalid and dropped counts, the
// health findings and the widths of the method and the settings at their
// widest.
func (h *Header) Refresh(st *common.Styles, s *session.Session) {
	if h.updating = !s.HealthReady(); !h.updating {
		h.findings = s.Findings()
	}
	h.unread = s.Unread
	counts := s.Counts()
	h.valid, h.invalid, h.dropped = counts.Valid(), counts.Invalid, counts.Dropped
	h.feasible, h.constrained = counts.Feasible, s.Result.Evaluation.HasConstraints()
	if key := (widestKey{s.Result, s.Options.Method, engine.MethodsFor(s.Options)}); !key.same(h.widestFor) {
		h.widest, h.widestFor = widestOf(st, s), key
	}
}

// widestOf measures the widths of s's method and settings at their
// widest: of the methods s's options allow, under the scope and the
// normalisation of the result shown.
func widestOf(st *common.Styles, s *session.Session) widths {
	scope := field(st, "scope:", string(s.Result.Options.Scope)) + headerSeparator
	w := widths{
		method:        len(common.WidestMethod(s.Options)), // method names are ASCII
		settings:      ansi.StringWidth(scope + field(st, "normalize:", common.WidestNormalizeText())),
		shortSettings: ansi.StringWidth(scope + field(st, "norm:", common.WidestNormalizeText())),
	}
	for _, m := range engine.MethodsFor(s.Options) {
		o := s.Result.Options
		o.Method = m
		w.changed = max(w.changed, ansi.StringWidth(changedSettings(st, o)))
	}
	return w
}

// field is a header's field: its key, then its value.
func field(st *common.Styles, key, value string) string {
	return st.HeaderKey.Render(key) + " " + st.HeaderValue.Render(value)
}

// minSourceWidth is the fewest cells the source is shortened to once it
// is cut below its last component.
const minSourceWidth = 9

// readableNameWidth is the fewest cells a goal's name is cut to
// ("accur…": five letters and the ellipsis, as README promises); a name
// that cannot keep them goes whole with the other goals, never shorter.
const readableNameWidth = 6

// sourceFloor is how short a layout lets the source get.
type sourceFloor int

const (
	// sourceWhole: the source is not cut (the computer's layout).
	sourceWhole sourceFloor = iota
	// sourceLast: cut at a separator, down to its last component
	// ("…/halfbad.jsonl", "…/verl/").
	sourceLast
	// sourceMin: cut from its start down to minSourceWidth cells.
	sourceMin
)

// layout is one arrangement of the header: its fields after the source,
// whether the health badge is the compact one, how short the source may
// get, and the cells kept beside the fields for the method and the
// settings at their widest (methodRoom, settingsRoom), so that m and n
// never make a field come or go.
type layout struct {
	fields  []string
	compact bool
	// unreadWhole says the badge's mark of the followed files not read
	// is whole ("⚠ a_1.jsonl unread"), and so are the progress badges
	// beside it ("◌ health updating…"), not compact ("⚠ 1 unread",
	// "◌"): arrange sets it where the badge is not compact, and step
	// 3a clears it on its copies of the layouts.
	unreadWhole bool
	floor       sourceFloor
	// methodAt and settingsAt index the method's and the settings' fields
	// (-1: none), after which their reserves, methodRoom and settingsRoom,
	// are kept, so that the fields after them stay where they are.
	methodAt, settingsAt     int
	methodRoom, settingsRoom int
}

// padded returns the layout's fields with the reserves kept after the
// method's and the settings' fields, as much of them as slack cells allow
// (the method's first): the settings' after the method's when the layout
// has no settings field.
func (l layout) padded(slack int) []string {
	methodPad := max(min(l.methodRoom, slack), 0)
	settingsPad := max(min(l.settingsRoom, slack-methodPad), 0)
	fields := slices.Clone(l.fields)
	settingsAt := l.settingsAt
	if settingsAt < 0 {
		settingsAt = l.methodAt
	}
	if l.methodAt >= 0 {
		fields[l.methodAt] += strings.Repeat(" ", methodPad)
	}
	if settingsAt >= 0 {
		fields[settingsAt] += strings.Repeat(" ", settingsPad)
	}
	return fields
}

// View renders the line and says whether it shows the goals. It never
// wraps. One rule fits it: the layouts are tried in this order, each
// giving up one more thing, and the first that fits is drawn:
//
//	source  batch  method: M  computer: C  scope: S  normalize: N  counts  goals  badge
//	1. the computer goes (it is fixed for the session): it is shown only
//	   beside the source whole
//	2. the source is cut at a separator, keeping whole trailing
//	   components, down to its last one ("…/trl/completions", "…/verl/")
//	3. normalize: shortens to norm:
//	3a. while a followed file is not read, its mark in the badge
//	   shortens ("⚠ 1 unread"; the status line names it whole), and so
//	   do the progress badges whose room is kept beside it ("◌")
//	4. the goals go (to the tab bar's end, if it has room for names of
//	   readableNameWidth: see WithGoals), with normalize: then norm:
//	5. the method's label goes
//	6. the settings left at their defaults go: the changed ones stay, in
//	   one field ("scope batch · norm off"; changedSettings)
//	7. the source is cut below its last component, from its start, down
//	   to minSourceWidth
//	8. the health badge's words go ("✖2 ⚠1")
//	9. the counts' words go (shortCounts: "127 valid !1 · 40 dropped 87%
//	   feas"; the dropped are the group filter's)
//	10. the batch's word, the dropped count and, with constraints, the
//	   valid count go (fewestCounts: "6/40 step 5  pareto  !1 87% feas")
//	11. the counts go
//	12. the changed settings go, the batch's word back in their room
//
// Every layout is tried with room kept for the longest method name m
// cycles to and, where normalize: or norm: is shown, the widest
// normalisation n gives, where the changed settings are, the most of them
// a method m cycles to names (rloo has no normalisation), so that
// neither m nor n makes a field come and go. That room is kept right
// after the method's field and after the settings' (layout.padded), so
// that the fields after them (the settings, the counts, the goals, the
// badge) stay in their columns under m and n; only a source cut to fit
// takes the room the fields leave (it grows back after each step, and
// beside a shorter method name), the fields after it then moving as it
// does. The method's name is always shown:
// only when it would not fit otherwise is the source cut below
// minSourceWidth. The health badge ends the line; its room is the widest
// of the badge, the "health updating" one and the "recomputing" one, so
// that nothing moves when one replaces another.
//
// compact is the last resort when neither the header nor the tab bar had
// room for the goals, with the badge's counts alone: the goals' names
// whole before the method's label and the default settings (the source
// down to its last component); then, the source down to minSourceWidth,
// the names cut shorter, down to readableNameWidth ("accur… ↑"; a name
// is never cut by one cell), before the counts' words, then the batch's
// word and the valid count, go as above, each step trying the names from
// whole to readableNameWidth again; when no names fit, the goals'
// arrows alone, in the objectives' order ("goals ↑↑↓": a minimised
// objective is still seen), beside the counts whole, never in place of
// their words. The changed settings are in every compact layout. ""
// when none fits: the goals then go whole.
func (h Header) View(c *common.Common, width int, compact bool) (line string, goalsShown bool) {
	s, st := c.Session, c.Styles
	normalize := common.NormalizeText(s.Result.Options)
	// counts ("127 valid ! 1 invalid · 40 dropped") shorten to
	// shortCounts ("127 valid !1 · 40 dropped 87% feas"), then to
	// fewestCounts: without the dropped, and without the valid count when
	// there are constraints, whose share says more ("!1 87% feas").
	valid := st.HeaderValue.Render(fmt.Sprintf("%d valid", h.valid))
	var invalid, shortInvalid, dropped string
	if h.invalid > 0 {
		invalid = st.Invalid.Render(fmt.Sprintf("! %d invalid", h.invalid))
		shortInvalid = st.Invalid.Render(fmt.Sprintf("!%d", h.invalid))
	}
	if h.dropped > 0 {
		dropped = st.HeaderValue.Render(fmt.Sprintf("· %d dropped", h.dropped))
	}
	counts, shortCounts, fewestCounts := joinNonEmpty(valid, invalid, dropped), joinNonEmpty(valid, shortInvalid, dropped), joinNonEmpty(valid, shortInvalid)
	if h.constrained {
		counts = joinNonEmpty(counts, feasibleText(st, h.feasible, "feasible"))
		shortCounts = joinNonEmpty(shortCounts, feasibleText(st, h.feasible, "feas"))
		fewestCounts = joinNonEmpty(shortInvalid, feasibleText(st, h.feasible, "feas"))
	}
	scope := string(s.Result.Options.Scope)
	methodText := string(s.Result.Options.Method)
	var (
		source = textsafe.Line(s.Source)
		step   = st.HeaderKey.Render(fmt.Sprintf("step %d", s.CurrentBatch().Step))
		batch  = st.HeaderValue.Render(fmt.Sprintf("batch %d/%d", s.Batch+1, len(s.Result.Ranking.Batches))) + " " + step
		// shortBatch is the batch without its word, for narrow lines.
		shortBatch = st.HeaderValue.Render(fmt.Sprintf("%d/%d", s.Batch+1, len(s.Result.Ranking.Batches))) + " " + step
		method     = field(st, "method:", methodText)
		// methodName is the method without its label, for narrow lines.
		methodName    = st.HeaderValue.Render(methodText)
		computer      = field(st, "computer:", string(session.ComputerOf(s.Computer)))
		settings      = field(st, "scope:", scope)
		shortSettings = settings
		changed       = changedSettings(st, s.Result.Options)
		goals         = goalsText(st, s.Result.Objectives)
	)
	if normalize != "" { // a method without normalisation (rloo) shows none
		settings += headerSeparator + field(st, "normalize:", normalize)
		shortSettings += headerSeparator + field(st, "norm:", normalize)
	}
	// The room kept for the method and the settings at their widest
	// (h.widest).
	methodReserve := max(h.widest.method-len(methodText), 0)
	changedReserve := max(h.widest.changed-ansi.StringWidth(changed), 0)
	settingsReserve := max(h.widest.settings-ansi.StringWidth(settings), 0)
	shortSettingsReserve := max(h.widest.shortSettings-ansi.StringWidth(shortSettings), 0)
	// arrange builds a layout of fields, keeping settingsRoom, the
	// reserve of its settings field, beside the method's.
	arrange := func(compact bool, floor sourceFloor, settingsRoom int, fields ...string) layout {
		fields = slices.DeleteFunc(fields, func(f string) bool { return f == "" })
		return layout{fields: fields, compact: compact, unreadWhole: !compact, floor: floor,
			methodAt:   slices.IndexFunc(fields, func(f string) bool { return f == method || f == methodName }),
			settingsAt: slices.IndexFunc(fields, func(f string) bool { return f == settings || f == shortSettings || f == changed }),
			methodRoom: methodReserve, settingsRoom: settingsRoom}
	}
	if h.Live != "" {
		batch = liveBadge(st, h.Live) + " " + batch
		shortBatch = liveBadge(st, h.Live) + " " + shortBatch
	}
	layouts := []layout{
		arrange(false, sourceWhole, settingsReserve, batch, method, computer, settings, counts, goals),
		arrange(false, sourceLast, settingsReserve, batch, method, settings, counts, goals),
		arrange(false, sourceLast, shortSettingsReserve, batch, method, shortSettings, counts, goals),
		arrange(false, sourceLast, settingsReserve, batch, method, settings, counts),
		arrange(false, sourceLast, shortSettingsReserve, batch, method, shortSettings, counts),
		arrange(false, sourceLast, shortSettingsReserve, batch, methodName, shortSettings, counts),
		arrange(false, sourceLast, changedReserve, batch, methodName, changed, counts),
		arrange(false, sourceMin, changedReserve, batch, methodName, changed, counts),
		arrange(true, sourceMin, changedReserve, batch, methodName, changed, counts),
		arrange(true, sourceMin, changedReserve, batch, methodName, changed, shortCounts),
		arrange(true, sourceMin, changedReserve, shortBatch, methodName, changed, fewestCounts),
		arrange(true, sourceMin, changedReserve, shortBatch, methodName, changed),
		arrange(true, sourceMin, 0, batch, methodName),
	}
	if len(h.unread) > 0 {
		// Step 3a: the layouts from the first again, the unread mark
		// shortened, after those that keep the goals with it whole.
		whole := layouts[:3]
		layouts = slices.Clone(layouts)
		for i := range layouts {
			layouts[i].unreadWhole = false
		}
		layouts = append(slices.Clip(whole), layouts...)
	}
	if compact {
		layouts = []layout{
			arrange(true, sourceLast, shortSettingsReserve, batch, method, shortSettings, counts, goals),
			arrange(true, sourceLast, shortSettingsReserve, batch, methodName, shortSettings, counts, goals),
			arrange(true, sourceLast, changedReserve, batch, methodName, changed, counts, goals),
		}
		// The goals cut shorter and shorter ("accur… ↑"), at each step
		// of the other fields' shortening, down to readableNameWidth.
		// The first width is the longest name's: none cut.
		widths := nameWidths(s.Result.Objectives, width)
		goalsWithin := make([]string, len(widths))
		for k, nameWidth := range widths {
			goalsWithin[k] = goalsTextWithin(st, s.Result.Objectives, nameWidth)
		}
		steps := [][]string{
			{batch, methodName, changed, counts},
			{batch, methodName, changed, shortCounts},
			{shortBatch, methodName, changed, shortCounts},
			{shortBatch, methodName, changed, fewestCounts},
		}
		for _, fields := range steps {
			for _, goalsCut := range goalsWithin {
				layouts = append(layouts, arrange(true, sourceMin, changedReserve, append(slices.Clip(fields), goalsCut)...))
			}
		}
		arrows := goalArrows(st, s.Result.Objectives)
		for _, fields := range steps[:1] {
			layouts = append(layouts, arrange(true, sourceMin, changedReserve, append(slices.Clip(fields), arrows)...))
		}
	}
	full, fullRoom := h.badge(st, false, true)
	unnamed, unnamedRoom := h.badge(st, false, false)
	short, shortRoom := h.badge(st, true, false)
	sourceWidth := ansi.StringWidth(source)
	floors := map[sourceFloor]int{
		sourceWhole: sourceWidth,
		sourceLast:  ansi.StringWidth(cutAtSeparator(source, 0)),
		sourceMin:   min(minSourceWidth, sourceWidth),
	}
	var rest, health string
	var room int
	fitted := false
	var chosen layout
	for _, chosen = range layouts {
		switch {
		case chosen.compact:
			health, room = short, shortRoom
		case chosen.unreadWhole:
			health, room = full, fullRoom
		default:
			health, room = unnamed, unnamedRoom
		}
		room = max(width-room, 0)
		rest = headerSeparator + strings.Join(chosen.fields, headerSeparator)
		if floors[chosen.floor]+ansi.StringWidth(rest)+chosen.methodRoom+chosen.settingsRoom <= room {
			fitted = true
			break
		}
	}
	if compact && !fitted {
		return "", false
	}
	sourceRoom := max(room-ansi.StringWidth(rest), min(minSourceWidth, room))
	if !fitted {
		// The last resort: the source shorter than minSourceWidth rather
		// than the method cut.
		sourceRoom = max(room-ansi.StringWidth(rest), 1)
	}
	shown := shortenPath(source, sourceRoom)
	rest = headerSeparator + strings.Join(chosen.padded(room-ansi.StringWidth(rest)-ansi.StringWidth(shown)), headerSeparator)
	line = st.Header.Render(shown) + rest
	// Every compact layout holds goals, each cut to its own width.
	goalsShown = compact || slices.Contains(chosen.fields, goals)
	return ansi.Truncate(ansi.Truncate(line, room, "…")+health, width, ""), goalsShown
}

// changedSettings names the scope and the normalisation where they differ
// from the engine's defaults (engine.DefaultOptions: scope group,
// normalisation on), the header's narrowest settings field: "scope batch
// · norm off"; "" when both are the defaults. The defaults, not the
// options the session opened with, are the reference: the flags or the
// trainer's layout that changed them are not on screen either.
func changedSettings(st *common.Styles, o engine.Options) string {
	var parts []string
	if def := engine.DefaultOptions(); o.Scope != def.Scope {
		parts = append(parts, st.HeaderKey.Render("scope")+" "+st.HeaderValue.Render(string(o.Scope)))
	}
	// Every method that normalises does so by default ("on": grpo's
	// scale group, the others' normalize on).
	if n := common.NormalizeText(o); n != "" && n != "on" {
		parts = append(parts, st.HeaderKey.Render("norm")+" "+st.HeaderValue.Render(n))
	}
	return strings.Join(parts, st.Muted.Render(" · "))
}

// badge returns the health badge as the header ends with it (compact:
// its counts alone), and the cells to keep for it: those of the widest
// of it, the "health updating" badge, which replaces it while the health
// is computed, and the "recomputing" one, which replaces either while a
// recompute runs. The followed files not read are said after each
// (common.UnreadBadge, compact unless unreadWhole, the progress badges
// then compact too): no recompute reads them.
func (h Header) badge(st *common.Styles, compact, unreadWhole bool) (string, int) {
	unread := common.UnreadBadge(st, h.unread, !unreadWhole)
	shown, updating, recomputing := common.HealthBadge(st, h.findings, unread, compact), common.UpdatingBadge(st), common.RecomputingBadge(st)
	if compact || unread != "" && !unreadWhole {
		updating = st.Muted.Render("◌")
		recomputing = updating
	}
	if unread != "" {
		updating += " " + unread
		recomputing += " " + unread
	}
	room := len(headerSeparator) + max(ansi.StringWidth(shown), ansi.StringWidth(updating), ansi.StringWidth(recomputing))
	switch {
	case h.Recomputing:
		shown = recomputing
	case h.updating:
		shown = updating
	}
	return headerSeparator + shown, room
}

// nameWidths are the widths the goals' names are cut to, widest first:
// the longest name's, then from two cells less (a cut saves at least two
// cells: cutNames) down to readableNameWidth; none when even those would
// not fit in room cells, so that a run of a thousand objectives costs no
// sweep.
func nameWidths(objs []scoring.Objective, room int) []int {
	longest, narrowest := 0, len(objs)-1 // narrowest: the goals at their shortest, a space apart
	for _, o := range objs {
		w := ansi.StringWidth(textsafe.Line(o.Name))
		longest = max(longest, w)
		narrowest += min(w, readableNameWidth) + ansi.StringWidth(" ↑")
	}
	if narrowest > room {
		return nil
	}
	widths := []int{longest}
	for w := longest - 2; w >= readableNameWidth; w-- {
		widths = append(widths, w)
	}
	return widths
}

// WithGoals ends the tab bar with the objectives' goals, right-aligned,
// when the header had no room for them: with the names cut shorter and
// shorter ("think_f… ↑") until they fit, so that a maximised length never
// goes unnoticed; false when they do not fit with the names cut to
// readableNameWidth (the header's compact form is tried next, which drops
// the default settings to keep the names).
func WithGoals(c *common.Common, bar string, width int) (string, bool) {
	room := width - ansi.StringWidth(bar) - 2
	for _, nameWidth := range nameWidths(c.Session.Result.Objectives, room) {
		goals := goalsTextWithin(c.Styles, c.Session.Result.Objectives, nameWidth)
		if w := ansi.StringWidth(goals); w <= room {
			return bar + strings.Repeat(" ", width-ansi.StringWidth(bar)-w) + goals, true
		}
	}
	return bar, false
}

// goalsText shows each objective's goal: "accuracy ↑ length ↓".
func goalsText(st *common.Styles, objs []scoring.Objective) string {
	return goalsTextWithin(st, objs, math.MaxInt)
}

// goalArrows is the goals without the names, each objective's arrow in
// their order: "goals ↑↑↓".
func goalArrows(st *common.Styles, objs []scoring.Objective) string {
	var arrows strings.Builder
	for _, o := range objs {
		arrows.WriteString(goalArrow(o.Goal))
	}
	return st.HeaderKey.Render("goals") + " " + st.HeaderValue.Render(arrows.String())
}

// goalArrow is ↓ for a minimised objective, ↑ for a maximised one.
func goalArrow(goal scoring.Goal) string {
	if goal == scoring.Minimize {
		return "↓"
	}
	return "↑"
}

// goalsTextWithin is goalsText with each name cut to nameWidth cells, an
// ellipsis marking the cut (cutNames).
func goalsTextWithin(st *common.Styles, objs []scoring.Objective, nameWidth int) string {
	names := make([]string, len(objs))
	for k, o := range objs {
		names[k] = textsafe.Line(o.Name)
	}
	names = cutNames(names, nameWidth)
	parts := make([]string, len(objs))
	for k, o := range objs {
		parts[k] = st.HeaderKey.Render(names[k]) + " " + st.HeaderValue.Render(goalArrow(o.Goal))
	}
	return strings.Join(parts, " ")
}

// cutNames cuts each of names to width cells, keeping its start and an
// ellipsis in place of the rest ("accur…"), but leaves whole a name one
// cell wider than width, which the ellipsis would shorten by a cell alone
// ("safety", never "safe…"); names that would then read alike, as those
// of a common prefix do ("reward_model_a", "…_b"), keep their end too
// ("re…el_a"), to be told apart.
func cutNames(names []string, width int) []string {
	cut := make([]string, len(names))
	seen := make(map[string]int, len(names))
	for k, name := range names {
		cut[k] = name
		if ansi.StringWidth(name) > width+1 {
			cut[k] = ansi.Truncate(name, width, "…")
		}
		seen[cut[k]]++
	}
	for k, name := range names {
		if seen[cut[k]] > 1 && ansi.StringWidth(name) > width+1 && width >= 3 {
			cut[k] = cutMiddle(name, width)
		}
	}
	return cut
}

// cutMiddle cuts name to width cells (at least 3) keeping a third of them
// from its start and the rest from its end, an ellipsis between.
func cutMiddle(name string, width int) string {
	head := max((width-1)/3, 1)
	tail := width - 1 - head
	return ansi.Truncate(name, head, "") + "…" + ansi.TruncateLeft(name, ansi.StringWidth(name)-tail, "")
}

// shortenPath returns the source cut to width cells from its start, an
// ellipsis in place of what is cut: at a separator when a whole trailing
// component fits (cutAtSeparator); else from its start, mid-name
// ("…3.jsonl").
func shortenPath(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	if cut := cutAtSeparator(s, width); ansi.StringWidth(cut) <= width {
		return cut
	}
	return shortenStart(s, width)
}

// cutAtSeparator returns the source cut at a separator to as many whole
// trailing components as fit width cells, an ellipsis in place of the
// rest ("…/trl/completions", "…/verl/"; a trailing "/" cuts nothing);
// when none fits, cut to its last component ("…/halfbad.jsonl"); the
// source itself when it has no separator to cut at or the cut is no
// shorter.
func cutAtSeparator(s string, width int) string {
	last := s
	// Each "/" but a leading or a trailing one starts a cut, longest
	// first.
	for k := 1; k < len(s)-1; k++ {
		if s[k] != '/' {
			continue
		}
		if last = "…" + s[k:]; ansi.StringWidth(last) <= width {
			return last
		}
	}
	if ansi.StringWidth(last) >= ansi.StringWidth(s) {
		return s
	}
	return last
}

// shortenStart returns s cut to width cells from its start, an ellipsis
// in place of what is cut: a path keeps its end, the file or directory
// the data is in ("…/trl/completions").
func shortenStart(s string, width int) string {
	w := ansi.StringWidth(s)
	if w <= width {
		return s
	}
	if width <= 1 {
		return ansi.TruncateLeft(s, w-width, "")
	}
	return "…" + ansi.TruncateLeft(s, w-(width-1), "")
}

// feasibleText shows the batch's feasible share followed by word
// ("87% feasible"; a share just under 1 or over 0 not rounded to all or
// none: english.Percent), marked as invalid counts are when some valid
// trajectory breaks a constraint; "– feasible" when the batch has no
// valid trajectory (NaN).
func feasibleText(st *common.Styles, share float64, word string) string {
	if math.IsNaN(share) {
		return st.HeaderKey.Render("– " + word)
	}
	percent := english.Percent(share)
	if share < 1 {
		return st.Invalid.Render(percent + " " + word)
	}
	return st.HeaderValue.Render(percent + " " + word)
}

// joinNonEmpty joins the parts that are not "" with a space.
func joinNonEmpty(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " ")
}

// headerSeparator separates the header's fields: two spaces, as a visible
// separator would push the longest method name and the counts past 120
// columns.
const headerSeparator = "  "

// liveBadge renders follow mode's tag: LIVE stands out; another ("paused,
// F follows") ends with a dot, else it runs on into the batch as one
// phrase ("F follows batch 2/3"), where F follows the newest.
func liveBadge(st *common.Styles, tag string) string {
	if tag == "LIVE" {
		return st.Positive.Render("● LIVE")
	}
	return st.HeaderKey.Render(tag + " ·")
}
