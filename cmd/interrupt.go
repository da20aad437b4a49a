package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// exitInterrupted is the status of a run stopped by ctrl+c (SIGINT) when
// the signal is not known: 128 + 2, as a shell reports it.
const exitInterrupted = 130

// Interrupted is the cause a caller of Main gives its context when a
// signal ends it: Main then says the run was interrupted and exits with
// 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
type Interrupted struct{ Signal os.Signal }

func (i Interrupted) Error() string { return i.Signal.String() }

// reportInterrupted reports a run that err, coming from ctx's end (a read
// that failed, the dashboard killed), stopped. It returns the exit status,
// and false for any other error: stats --follow ends on ctrl+c by design,
// with its own status.
func reportInterrupted(ctx context.Context, err error, w io.Writer) (int, bool) {
	if ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
		return 0, false
	}
	status, what := exitInterrupted, "interrupted"
	var sig Interrupted
	if errors.As(context.Cause(ctx), &sig) {
		what += " (" + sig.Signal.String() + ")"
		if s, ok := sig.Signal.(syscall.Signal); ok {
			status = 128 + int(s)
		}
	}
	fmt.Fprintf(w, "rewardlens: %s\n", what)
	return status, true
}
