package common

import (
	"fmt"
	"strings"

	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// healthCounts counts the checks (per objective) by the worst level they
// reached.
func healthCounts(findings []health.Finding) (warn, alert int) {
	worst := map[[2]string]health.Level{}
	for _, f := range findings {
		k := [2]string{string(f.Check), f.Objective}
		worst[k] = max(worst[k], f.Level)
	}
	for _, l := range worst {
		if l == health.Alert {
			alert++
		} else {
			warn++
		}
	}
	return warn, alert
}

// UpdatingBadge is the header's badge while the health of the result
// shown is computed in the background.
func UpdatingBadge(st *Styles) string { return st.Muted.Render("◌ health updating…") }

// HealthBadge sums the findings up for the header: "✓ healthy", or the
// checks by their worst level, "✖ 1 ALERT ⚠ 2 WARN", the ALERT highlighted.
func HealthBadge(st *Styles, findings []health.Finding) string {
	return badge(st, findings, "✖ %d ALERT", "⚠ %d WARN", "✓ healthy")
}

// CompactHealthBadge is HealthBadge's counts alone, "✖2 ⚠1", for a narrow
// header.
func CompactHealthBadge(st *Styles, findings []health.Finding) string {
	return badge(st, findings, "✖%d", "⚠%d", "✓")
}

// badge is the checks counted by their worst level in the formats given,
// or healthy when there are none.
func badge(st *Styles, findings []health.Finding, alertFormat, warnFormat, healthy string) string {
	warn, alert := healthCounts(findings)
	var parts []string
	if alert > 0 {
		parts = append(parts, st.Alert.Render(fmt.Sprintf(alertFormat, alert)))
	}
	if warn > 0 {
		parts = append(parts, st.Warning.Render(fmt.Sprintf(warnFormat, warn)))
	}
	if len(parts) == 0 {
		return st.Positive.Render(healthy)
	}
	return strings.Join(parts, " ")
}

// FindingLine is one finding for the Steps tab: level, step, check and
// what it saw.
func FindingLine(st *Styles, f health.Finding) string {
	level := st.Warning.Render("⚠ WARN ")
	if f.Level == health.Alert {
		level = st.Alert.Render("✖ ALERT")
	}
	check := string(f.Check)
	if f.Objective != "" {
		check += " (" + f.Objective + ")"
	}
	return fmt.Sprintf("%s step %-4d %s: %s", level, f.Step, textsafe.Line(check), textsafe.Line(f.Message))
}
