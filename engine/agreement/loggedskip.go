package agreement

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// NotNumberWarning says how many rows' logged advantage is there but
// not a number (engine.Evaluation.LoggedNotNumbers), read as absent: the
// first's place and value (textsafe.QuoteShort, textsafe.Shorten), a number
// written as a string said as such; "" when none is.
func NotNumberWarning(ev *engine.Evaluation) string {
	n := ev.LoggedNotNumbers
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d %s logged advantage is not a number%s: read as absent, %s not compared with the rewards",
		n, english.Verb(n, "row's", "rows'"), firstLogged(ev.FirstLoggedNotNumber), english.Verb(n, "it is", "they are"))
}

// NonFiniteWarning says how many rows' logged advantage is NaN or
// infinite (engine.Evaluation.LoggedNonFinite), which no reward is
// compared with, and the first's place and value; "" when none is.
func NonFiniteWarning(ev *engine.Evaluation) string {
	n := ev.LoggedNonFinite
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d %s logged advantage is NaN or infinite%s: %s not compared with the rewards",
		n, english.Verb(n, "row's", "rows'"), firstLogged(ev.FirstLoggedNonFinite), english.Verb(n, "it is", "they are"))
}

// firstLogged is " (the first: WHERE: VALUE)" for the first of a kind of
// logged value, "" when it is not known (engine.LoggedValue.Known).
func firstLogged(first engine.LoggedValue) string {
	if !first.Known() {
		return ""
	}
	var value string
	switch v := first.Value.(type) {
	case string:
		value = textsafe.QuoteShort(v)
		if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			value += ", a number written as a string, which is not read as one"
		}
	default:
		text, err := json.Marshal(v)
		if err != nil {
			text = []byte(fmt.Sprint(v)) // NaN, +Inf, -Inf
		}
		value = textsafe.Shorten(string(text))
	}
	return fmt.Sprintf(" (the first: %s: %s)", first.Where, value)
}
