package layouts

import (
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
)

// promptFields are the names datasets commonly give the field that holds
// a record's prompt or its id, in the order UngroupedWarning suggests
// grouping by them: the first that the first records have.
var promptFields = []string{"prompt", "prompt_id", "question", "problem", "query", "instruction", "input", "uid"}

// UngroupedWarning returns the warning that no trajectory of res has a
// group (plain records without a group field nor --group-by), so that
// under scope group each batch is one comparison group: a method that
// normalises within a group then normalises over the whole batch, where a
// trainer normalises over the completions of one prompt. It names the
// method's reward under that grouping (engine.MethodSpec.Note) and how to
// group the records, by the first of promptFields among fields (the first
// records' field names, sorted). "" when some trajectory has a group, or
// under scope batch, which compares the whole batch by choice.
func UngroupedWarning(res *engine.Result, fields []string) string {
	if res == nil || res.Options.Scope == engine.ScopeBatch || !res.Evaluation.Ungrouped() {
		return ""
	}
	batch := "each batch is one comparison group"
	if res.Evaluation.HasSources() {
		batch = "each batch's trajectories of one source are one comparison group"
	}
	asBatch := res.Options
	asBatch.Scope = engine.ScopeBatch
	how := "give each record a group field (its prompt's id or text), or --group-by EXPR naming the field that holds its prompt"
	if i := slices.IndexFunc(promptFields, func(f string) bool { _, found := slices.BinarySearch(fields, f); return found }); i >= 0 {
		how = fmt.Sprintf("give each record a group field, or --group-by %s (the first record has %s)", promptFields[i], promptFields[i])
	}
	return fmt.Sprintf("no trajectory has a group (a group field, or --group-by): %s, so %s's rewards are %s, not per prompt; %s",
		batch, res.Options.Method, engine.Spec(res.Options.Method).Note(asBatch), how)
}
