package tool

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/play"
)

// Exit is an error that ends the process with exit code Code; Err, when
// not nil, is the message to print. Commands return it (a verdict other
// than Pass, or an error: InputError).
type Exit struct {
	Code int
	Err  error
}

func (e *Exit) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *Exit) Unwrap() error { return e.Err }

// InputError wraps an error about the user's input: exit 3
// (play.ExitError).
func InputError(err error) error { return &Exit{Code: play.ExitError, Err: err} }

// Code returns the exit code err ends the process with: that of an Exit
// it wraps, ExitPass for nil, ExitError for any other error.
func Code(err error) int {
	if err == nil {
		return play.ExitPass
	}
	if e := (*Exit)(nil); errors.As(err, &e) {
		return e.Code
	}
	return play.ExitError
}

// UsageError is a misuse of the command line of command (exit 3,
// play.ExitError): one line that names the command's help, "MESSAGE
// (see stg run --help)".
func UsageError(command, format string, args ...any) error {
	return &Exit{Code: play.ExitError, Err: fmt.Errorf("%s (see %s --help)", fmt.Sprintf(format, args...), command)}
}
