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

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine"
)

// File is a config file as read: where it is, its text and the values it
// sets.
type File struct {
	Path, Text string
	Config     engine.Config
}

// Error is an error of the config file at Path, at its Line (0 when it
// cannot tell): "PATH:LINE: ERR".
type Error struct {
	Path string
	Line int
	Err  error
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// placed is err at line of the file at path.
func placed(path string, line int, err error) error {
	return &Error{Path: path, Line: line, Err: err}
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
	var cfg engine.Config
	md, err := toml.Decode(text, &cfg)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, placed(path, pe.Position.Line, errors.New(pe.Message))
		}
		if typeErr := typeError(path, text); typeErr != nil {
			return nil, typeErr
		}
		return nil, placed(path, 0, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return nil, unknownKeysError(path, text, undecoded)
	}
	// The decoder leaves a table's setting unset, and says nothing, when
	// the file gives it a number ("weights = 3").
	if typeErr := typeError(path, text); typeErr != nil {
		return nil, typeErr
	}
	return &File{Path: path, Text: text, Config: cfg}, nil
}
