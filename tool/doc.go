// Package tool holds stg's commands as a library: each command is a
// function that takes a typed options struct (with its defaults set in
// one place, EnsureDefaults) and the writers to print on, and returns
// an error that carries the process's exit code (Exit). The command
// line, cmd/stg, only defines the flags, fills these options and calls
// the function, in the manner of cockroachdb/pebble's tool package
// behind its cmd/pebble. A Go program can call the same functions.
//
// Exit codes are play's (ExitPass, ExitFail, ExitInconc, ExitError,
// ExitWeakPass): a verdict, or 3 for an error of the input, of the
// usage, or of talking to a SUT. See docs/reference.md#command-line.
package tool
