// Package configfile reads rewardlens' TOML config file (--config) and
// finds the line of each of its settings, so that every error about a
// value of the file says "PATH:LINE: what": a typo in a key, a value of
// the wrong type, a value the engine refuses. The TOML decoder keeps the
// places of keys to itself, so the text is scanned again (keys.go).
package configfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// File is a config file as read: where it is, its text and the values it
// sets.
type File struct {
	Path, Text string
	Config     setup.Config
}

// Error is an error of the config file at Path, at its Line (0 when it
// cannot tell): "PATH:LINE: ERR". An expression's error that does not
// compile is said at its place in the file, "PATH:LINE:COL: expression
// NAME = "SRC": MSG", or, when its column in the file cannot be told (an
// escape before it, an expression over several lines), with its place in
// the expression said as such: "PATH:LINE: expression NAME = "SRC":
// column C of the expression: MSG".
type Error struct {
	Path   string
	Line   int
	Column int // of an expression's error in the file, from 1; 0 for none
	Err    error
	// text is Err's text with an expression's place said as above, ""
	// for Err's own.
	text string
}

func (e *Error) Error() string {
	text := e.text
	if text == "" {
		text = e.Err.Error()
	}
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.Path, text)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, text)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, text)
}

func (e *Error) Unwrap() error { return e.Err }

// placed is err at line of text, the file at path.
func placed(path, text string, line int, err error) *Error {
	e := &Error{Path: path, Line: line, Err: err}
	var ce *scoring.CompileError
	if line == 0 || !errors.As(err, &ce) {
		return e
	}
	// The expression's own "line 1, column C" would read as the file's.
	where := fmt.Sprintf("column %d of the expression: ", ce.Column)
	if ce.Line > 1 {
		where = fmt.Sprintf("line %d, column %d of the expression: ", ce.Line, ce.Column)
	}
	if e.Column = exprColumn(lineOf(text, line), ce); e.Column > 0 {
		where = ""
	}
	unplaced := fmt.Sprintf("expression %s = %q: %s%s", ce.Name, ce.Source, where, ce.Msg)
	e.text = strings.Replace(err.Error(), ce.Error(), unplaced, 1)
	return e
}

// exprColumn returns the column, from 1, in line (a line of the file) of
// the place ce's error is at in its expression, 0 when it cannot tell:
// the expression must be on line as it is, quoted ("SRC" or 'SRC'), after
// the line's first =.
func exprColumn(line string, ce *scoring.CompileError) int {
	if ce.Line != 1 || strings.ContainsAny(ce.Source, "\n") {
		return 0
	}
	_, value, ok := strings.Cut(line, "=")
	if !ok {
		return 0
	}
	start := len(line) - len(value)
	for _, quote := range []string{`"`, `'`} {
		if i := strings.Index(value, quote+ce.Source+quote); i >= 0 {
			before := line[:start+i+1] // up to the opening quote
			return utf8.RuneCountInString(before) + ce.Column
		}
	}
	return 0
}

// lineOf returns the n-th line of text, from 1.
func lineOf(text string, n int) string {
	for i, line := range strings.Split(text, "\n") {
		if i == n-1 {
			return line
		}
	}
	return ""
}

// Read reads the TOML config file at path; unknown keys are an error, so
// that a typo does not silently fall back to a default, and so is a value
// of the wrong type, at its line.
func Read(path string) (*File, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("config %s: a directory, not a file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("config %s: no such file", path)
		}
		return nil, err
	}
	return Parse(path, string(data))
}

// Parse reads text, the config file at path, as Read does.
func Parse(path, text string) (*File, error) {
	var cfg setup.Config
	md, err := toml.Decode(text, &cfg)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, placed(path, text, pe.Position.Line, errors.New(pe.Message))
		}
		if typeErr := typeError(path, text); typeErr != nil {
			return nil, typeErr
		}
		return nil, placed(path, text, 0, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return nil, unknownKeysError(path, text, undecoded)
	}
	// The decoder leaves a table's setting unset, and says nothing, when
	// the file gives it a number ("weights = 3").
	if typeErr := typeError(path, text); typeErr != nil {
		return nil, typeErr
	}
	cfg.SourceOrder = sourceOrder(md)
	return &File{Path: path, Text: text, Config: cfg}, nil
}

// sourceOrder returns the names of the [sources.NAME] tables in the order
// the file declares them, which the decoded map has lost.
func sourceOrder(md toml.MetaData) []string {
	var names []string
	for _, k := range md.Keys() {
		// A table's first key names it: [sources.NAME] or, without one,
		// [sources.NAME.weights].
		if len(k) >= 2 && k[0] == "sources" && !slices.Contains(names, k[1]) {
			names = append(names, k[1])
		}
	}
	return names
}

// Line returns the line where the file sets key (its parts: "weights",
// "accuracy"), else where the nearest table holding it is; 0 when it does
// not set it.
func (f *File) Line(key ...string) int { return settingLine(f.Text, key) }

// At returns err, an error about the file's value of key (its parts), at
// that key's line (Line): an *Error.
func (f *File) At(err error, key ...string) error {
	return placed(f.Path, f.Text, f.Line(key...), err)
}

// ObjectiveAt returns err, an error about the objective name's
// expression, at the line of the expr of the file's [[objective]] of that
// name (the top level's first, then each [sources.NAME] table's in the
// file's order): an *Error; nil when the file has no objective so named.
func (f *File) ObjectiveAt(err error, name string) error {
	for i, o := range f.Config.Objectives {
		if o.Name != name {
			continue
		}
		if line := entryKeyLine(f.Text, "objective", i, "expr"); line > 0 {
			return placed(f.Path, f.Text, line, err)
		}
	}
	return nil
}

// ScaleContradiction returns the warning of a file that sets scale =
// "group" or "batch" and normalize = false, which contradict each other,
// "" for a file that does not: "PATH:LINE: scale = "group" and normalize
// = false (line N) contradict each other: ...", at scale's line.
func (f *File) ScaleContradiction() string {
	c := f.Config
	if c.Normalize == nil || *c.Normalize || (c.Scale != string(engine.ScaleGroup) && c.Scale != string(engine.ScaleBatch)) {
		return ""
	}
	normalize := "normalize = false"
	if line := f.Line("normalize"); line > 0 {
		normalize += fmt.Sprintf(" (line %d)", line)
	}
	err := fmt.Errorf("scale = %q and %s contradict each other: normalize = false wins, the rewards are not scaled (drop one of them)", c.Scale, normalize)
	return f.At(err, "scale").Error()
}
