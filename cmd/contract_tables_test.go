package cmd

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/health"
)

// TestContractMethods checks docs/CONTRACT.md against the engine's table of
// methods (engine.MethodSpec): the Methods table has one row per method,
// in order, and the dominance check names the methods that reward the
// score.
func TestContractMethods(t *testing.T) {
	page, err := os.ReadFile(contractPath)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n## Methods\n")
	if !ok {
		t.Fatal("docs/CONTRACT.md has no Methods section")
	}
	section, _, _ = strings.Cut(section, "\n### ")
	var rows []engine.Method
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(section, -1) {
		rows = append(rows, engine.Method(m[1]))
	}
	if !slices.Equal(rows, engine.AllMethods()) {
		t.Errorf("the Methods table lists %v, the engine %v", rows, engine.AllMethods())
	}
	var score []string
	for _, m := range engine.AllMethods() {
		if engine.Spec(m).RewardsScore {
			score = append(score, string(m))
		}
	}
	if want := "methods " + strings.Join(score, ", ") + " only"; !strings.Contains(string(page), want) {
		t.Errorf("the dominance check does not say %q", want)
	}
}

// TestContractHealthChecks checks that docs/CONTRACT.md's Health checks
// table has one row per check of health's table (health.Checks).
func TestContractHealthChecks(t *testing.T) {
	page, err := os.ReadFile(contractPath)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n## Health checks\n")
	if !ok {
		t.Fatal("docs/CONTRACT.md has no Health checks section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(section, -1) {
		rows = append(rows, m[1])
	}
	var checks []string
	for _, c := range health.Checks {
		checks = append(checks, string(c))
	}
	slices.Sort(rows)
	slices.Sort(checks)
	if !slices.Equal(rows, checks) {
		t.Errorf("the Health checks table lists %v, health %v", rows, checks)
	}
}
