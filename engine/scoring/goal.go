package scoring

// Goal says whether an objective is maximised or minimised.
type Goal string

// The objective goals.
const (
	Maximize Goal = "max"
	Minimize Goal = "min"
)

// Goals lists every goal.
var Goals = []Goal{Maximize, Minimize}
