// Package cmdline holds the conventions of stg's command line, on top of
// urfave/cli, for any command of it: flags written before or after the
// positional arguments (Interspersed, Args), usage errors on one line
// that name the command's help (UsageError, OnUsageError), usage lines
// that list every flag with a placeholder in capitals (Conventions),
// the nearest command to a misspelt one (RootAction), a help command,
// --version, and the end of a command on SIGINT, SIGTERM or SIGHUP with
// exit 3 (OnSignals). It knows no command of stg: cmd/stg defines them.
package cmdline
