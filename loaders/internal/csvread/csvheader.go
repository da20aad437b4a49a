package csvread

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// checkHeader fails when the first row of a CSV input is data rather than
// column names: when every cell that is not empty is a number. Reading it as
// a header would name the columns "1", "0.5"... and lose a row, with
// nothing said; a header of numbers is no header anyone wrote on purpose.
func checkHeader(l *input.Loader, header []string, cr *csv.Reader) error {
	var numbers []string
	names, _ := namedColumns(header)
	for _, name := range names {
		if !isNumeral(name) {
			return nil
		}
		numbers = append(numbers, name)
	}
	if len(numbers) == 0 {
		return nil
	}
	line, col := cr.FieldPos(0)
	shown := strings.Join(numbers[:min(len(numbers), 4)], ", ")
	if len(numbers) > 4 {
		shown += ", ..."
	}
	msg := fmt.Sprintf("no header row: the first row holds numbers (%s), not column names; CSV input starts with a header such as id,group,accuracy", textsafe.Shorten(shown))
	return l.ErrorAt(line, col, msg)
}

// namedColumns returns the columns of a CSV header row that have a name,
// in its order: their names, trimmed of spaces, and their indexes in
// header. A column without a name (the index column pandas writes, a
// name of spaces) is left out: its cells are no field of a trajectory.
func namedColumns(header []string) (names []string, index []int) {
	for i, name := range header {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
			index = append(index, i)
		}
	}
	return names, index
}

// isNumeral reports whether s is written as a number: it parses as one and
// starts as one, so that names such as "nan" or "inf" stay names.
func isNumeral(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return false
	}
	c := s[0]
	return c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9')
}
