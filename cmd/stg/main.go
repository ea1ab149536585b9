// Command stg synthesises conformance tests for reactive systems from
// symbolic models (ioSTS), in the line of the STG tool. See docs/reference.md for
// the contract: model files, expressions, command line, exit codes.
//
// It defines the flags of each command and maps them onto the options
// of the command's function in package tool, which does the work;
// internal/cmdline holds the conventions of the command line.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// Exit codes of every command (docs/reference.md#command-line).
const (
	exitPass     = play.ExitPass     // success / Pass
	exitFail     = play.ExitFail     // Fail
	exitInconc   = play.ExitInconc   // Inconc
	exitError    = play.ExitError    // bad input, bad usage, or a SUT that could not be talked to
	exitWeakPass = play.ExitWeakPass // WeakPass (symbolic purposes)
)

// defaultSolverTimeout bounds each solver query of the commands
// (--solver-timeout).
const defaultSolverTimeout = tool.DefaultSolverTimeout

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "stg",
		Usage:     "symbolic test generation from ioSTS models",
		Writer:    stdout,
		ErrWriter: stderr,
		// Usage errors are ours to report with exit code 3.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true, // ours, cmdline.HelpCommand, takes a subcommand too
		Commands:        commands(),
		// --version only: -v is generate's --verbose. urfave/cli's
		// version flag, a package variable, is -v too; ours replaces it.
		HideVersion: true,
		// With a command named help, urfave/cli adds no --help: give it.
		Flags:        []cli.Flag{cli.HelpFlag, &cli.BoolFlag{Name: "version", Usage: "print the version of stg"}},
		Before:       cmdline.PrintVersion,
		Action:       cmdline.RootAction, // an unknown command names the nearest
		OnUsageError: cmdline.OnUsageError,
	}
	cmdline.Conventions(app.Commands, app.Name)
	return app
}

// commands returns stg's commands, each ended by a signal with exit 3,
// but for stg run, which handles signals itself (it kills the SUTs'
// process groups and writes its report first).
func commands() []*cli.Command {
	cmds := []*cli.Command{
		checkCommand(), generateCommand(), dotCommand(), runCommand(), reportCommand(), symexCommand(),
		purposesCommand(), verdictCommand(), abstractCommand(), tourCommand(), composeCommand(), projectCommand(),
		viewCommand(), cmdline.HelpCommand("stg"),
	}
	for _, c := range cmds {
		if c.Name != "run" {
			cmdline.OnSignals(c, c.Name)
		}
	}
	return cmds
}

// run runs stg with args and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	args, err := cmdline.Interspersed(app, args) // flags after arguments too
	if err == nil {
		err = app.Run(args)
	}
	if err == nil {
		return exitPass
	}
	var ec *tool.Exit
	if errors.As(err, &ec) {
		if ec.Err != nil {
			fmt.Fprintln(stderr, ec.Err)
		}
		return ec.Code
	}
	fmt.Fprintln(stderr, "stg:", err)
	return exitError
}

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// usageError is cmdline.UsageError, for the commands' wiring.
func usageError(c *cli.Context, format string, args ...any) error {
	return cmdline.UsageError(c, format, args...)
}

// positionalArgs returns the positional arguments of c (cmdline.Args).
func positionalArgs(c *cli.Context) ([]string, error) { return cmdline.Args(c), nil }

// loadModel reads a model file, a system flattened (tool.LoadModel).
func loadModel(path string, sp *spec.Model) (*spec.Model, error) { return tool.LoadModel(path, sp) }
