package loaders

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"
)

// AwaitInputs waits, for Follow, until each of paths that does not exist
// yet appears (its parent directories may not exist either): as a file,
// or as a directory once it holds an input file. A trainer creates its
// dump's directory just before it writes the first file into it (verl's
// rollout_data_dir), whose fields tell the layout. waiting is called once for
// each path waited for, before the wait. The paths are looked at every
// poll; it returns ctx's error once ctx is done. A path that exists, or
// that cannot be looked at for another reason, is not waited for: Follow
// reads it or says what is wrong.
func AwaitInputs(ctx context.Context, paths []string, poll time.Duration, waiting func(path string)) error {
	ticker := time.NewTicker(poll)
	defer ticker.Stop()
	for _, p := range paths {
		if p == "-" || !missing(p) {
			continue
		}
		waiting(p)
		for !appeared(p) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-ticker.C:
			}
		}
	}
	return nil
}

// missing reports whether path does not exist.
func missing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// appeared reports whether path exists and, when a directory, holds an
// input file (listInputs).
func appeared(path string) bool {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false
	case err != nil || !st.IsDir():
		return true
	}
	files, err := listInputs(path)
	return err != nil || len(files) > 0
}
