package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// reportDuplicates warns, on stderr, about trajectories that repeat an
// earlier one's ID. They are computed and written like the others, but
// whoever joins compute's records back to the rollouts by ID would mix
// them up, so it is said.
func reportDuplicates(w io.Writer, ids *idList) {
	n, first := engine.CountDuplicates(ids.len(), ids.at)
	if n == 0 {
		return
	}
	quoted := make([]string, len(first))
	for i, id := range first {
		quoted[i] = strconv.Quote(id) // escapes control characters, as textsafe
	}
	verb := "repeats"
	if n > 1 {
		verb = "repeat"
	}
	fmt.Fprintf(w, "rewardlens: warning: %d %s %s an earlier one's ID (%s); each is computed and written, in input order\n",
		n, plural(n, "trajectory"), verb, textsafe.Line(strings.Join(quoted, ", ")))
}
