package cmd

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
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
	if !slices.Equal(rows, engine.Methods) {
		t.Errorf("the Methods table lists %v, the engine %v", rows, engine.Methods)
	}
	var score []string
	for _, m := range engine.Methods {
		if engine.Spec(m).RewardsScore {
			score = append(score, string(m))
		}
	}
	if want := "methods " + strings.Join(score, ", ") + " only"; !strings.Contains(string(page), want) {
		t.Errorf("the dominance check does not say %q", want)
	}
}
