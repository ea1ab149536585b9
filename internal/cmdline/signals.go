package cmdline

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/tool"
	"github.com/urfave/cli/v2"
)

// StopSignals end a command: Ctrl-C, kill's default, a closed terminal.
func StopSignals() []os.Signal { return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} }

// untilSignal runs the action of stg NAME and returns its error, unless
// one of stopSignals arrives first: then it returns at once with exit
// code 3 and "stg NAME: interrupted by SIGNAL", leaving the action's
// goroutine behind (the process exits next; a solver query in progress
// does not delay it). The action must write its output files whole or
// not at all (tool.WriteOutput renames a complete temporary file).
func untilSignal(name string, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, StopSignals()...)
		defer signal.Stop(sigs)
		done := make(chan error, 1)
		go func() { done <- action(c) }()
		select {
		case err := <-done:
			return err
		case s := <-sigs:
			return &tool.Exit{Code: play.ExitError, Err: fmt.Errorf("stg %s: interrupted by %v", name, signalName(s))}
		}
	}
}

// signalName names s as kill(1) does: SIGINT, SIGTERM, SIGHUP.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// OnSignals wraps the action of c, named name (report merge), and of
// its subcommands in untilSignal.
func OnSignals(c *cli.Command, name string) {
	if c.Action != nil {
		c.Action = untilSignal(name, c.Action)
	}
	for _, sub := range c.Subcommands {
		OnSignals(sub, name+" "+sub.Name)
	}
}
