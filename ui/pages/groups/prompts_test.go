package groups

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestGroupsPromptEditedInPlace: verl's uid groups show the prompt of
// their first member, read again from the file; a record edited in place
// after the load (the first group's two rows rescored, their prompt
// rewritten, the same size) is not shown with its new prompt beside its
// old objectives: the group shows its key, and the status line says the
// record changed. The other groups show their prompts.
func TestGroupsPromptEditedInPlace(t *testing.T) {
	var b strings.Builder
	for j, g := range []struct{ uid, prompt string }{{"3f2a1c9b-0001", "What is 2+2?"}, {"3f2a1c9b-0002", "Name a prime."}} {
		for k := range 2 {
			fmt.Fprintf(&b, `{"id":"t%d%d","group":%q,"metadata":{"input":%q,"a":%d,"b":1}}`+"\n", j, k, g.uid, g.prompt, k)
		}
	}
	text := b.String()
	cfg := setup.Config{Method: "grpo", PromptField: "input", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}}}
	s := uitest.FileSessionHere(t, text, cfg)
	edited := strings.NewReplacer(`"What is 2+2?","a":0`, `"What is 5+5?","a":1`, `"What is 2+2?","a":1`, `"What is 5+5?","a":0`).Replace(text)
	if len(edited) != len(text) || edited == text {
		t.Fatal("the edit does not keep the file's size")
	}
	if err := os.WriteFile(s.Trajectories.At(0).Source, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	view := uitest.Plain(tab)
	status, _, _ := strings.Cut(view, "\n")
	if !strings.Contains(status, `a key in place of its prompt: run.jsonl:`) || !strings.Contains(status, `changed since it was loaded`) ||
		strings.Contains(view, "5+5") || !strings.Contains(view, "3f2a1c9b-0001") || !strings.Contains(view, "Name a prime.") {
		t.Errorf("the groups, a record edited in place:\n%s", view)
	}
	golden.RequireEqual(t, view)
}
