package trajectory

import (
	"slices"
	"strings"
)

// finishFields are the record fields that say how a completion ended, in
// the order looked for: open-instruct's finish_reason (vLLM's: "stop",
// "length" when cut at the length limit, what its
// mask_truncated_completions masks), stop_reason, and the booleans
// truncated and is_truncated. TRL's completions table and verl's dumps
// write none of them.
var finishFields = []string{"finish_reason", "stop_reason", "truncated", "is_truncated"}

// Finish is how a record says its completion ended: Field is the first
// of finishFields it has, Text its value (a string as it is, else as
// metadataText writes it), not escaped; Cut reports a completion cut at the length limit: the
// value "length" (in any case), or true.
type Finish struct {
	Field, Text string
	Cut         bool
}

// FinishField returns the first of finishFields among fields (the field
// names of records), "" when none is.
func FinishField(fields []string) string {
	if k := slices.IndexFunc(finishFields, func(f string) bool { return slices.Contains(fields, f) }); k >= 0 {
		return finishFields[k]
	}
	return ""
}

// FinishOf returns how metadata md says its completion ended; false when
// it has none of finishFields.
func FinishOf(md map[string]any) (Finish, bool) {
	for _, f := range finishFields {
		v, ok := md[f]
		if !ok {
			continue
		}
		if s, ok := v.(string); ok {
			return Finish{Field: f, Text: s, Cut: strings.EqualFold(s, "length")}, true
		}
		return Finish{Field: f, Text: metadataText(v), Cut: v == true}, true
	}
	return Finish{}, false
}
