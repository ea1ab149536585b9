package cmdline

import (
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/tool"
)

// Version returns the version of this build of stg: its module version
// when built from a tagged module (go install ...@v1.2.3), else the VCS
// revision go build stamped, else "devel".
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "devel (" + info.GoVersion + ")"
	}
	return "devel " + rev + dirty + " (" + info.GoVersion + ")"
}

// RootAction runs when the first argument names no command: without
// arguments it prints the help; otherwise the argument is an unknown
// command, reported with the nearest command's name (exit 3).
func RootAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	name := c.Args().First()
	msg := fmt.Sprintf("%s: unknown command %q", c.App.Name, name)
	if near := nearestCommand(c.App.Commands, name); near != "" {
		msg += fmt.Sprintf("; did you mean %s %s?", c.App.Name, near)
	}
	return tool.UsageError(c.App.Name, "%s", msg)
}

// nearestCommand returns the name of the command nearest to name in edit
// distance, if it is near enough to be a misspelling: at most a third of
// the longer word, or name is a prefix of it.
func nearestCommand(cmds []*cli.Command, name string) string {
	best, bestD := "", -1
	for _, cmd := range cmds {
		for _, n := range cmd.Names() {
			if strings.HasPrefix(n, name) && len(name) >= 2 {
				return cmd.Name
			}
			d := levenshtein(strings.ToLower(name), n)
			if bestD < 0 || d < bestD {
				best, bestD = cmd.Name, d
			}
		}
	}
	if bestD < 0 || 3*bestD > max(len(name), len(best)) {
		return ""
	}
	return best
}

// levenshtein returns the edit distance of a and b: insertions,
// deletions, substitutions and transpositions of adjacent bytes
// (Damerau's restricted form), each counting 1.
func levenshtein(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// flagHint returns a hint on a value that flag f refused with err: a
// bare number for a duration needs a unit; an integer out of range is
// told its bounds. Only a duration flag gets the duration hint.
func flagHint(f cli.Flag, value string, err error) string {
	switch f.(type) {
	case *cli.DurationFlag:
		return tool.DurationHint(value)
	case *cli.IntFlag:
		if strings.Contains(err.Error(), "out of range") {
			return fmt.Sprintf("; an integer from %d to %d", math.MinInt, math.MaxInt)
		}
	case *cli.Int64Flag:
		if strings.Contains(err.Error(), "out of range") {
			return fmt.Sprintf("; an integer from %d to %d", math.MinInt64, math.MaxInt64)
		}
	case *cli.UintFlag, *cli.Uint64Flag:
		if strings.Contains(err.Error(), "out of range") {
			return fmt.Sprintf("; an integer from 0 to %d", uint64(math.MaxUint64))
		}
	}
	return ""
}

// PrintVersion prints the version of the program and ends it (exit 0)
// when --version is given, before any command.
func PrintVersion(c *cli.Context) error {
	if !c.Bool("version") {
		return nil
	}
	fmt.Fprintf(c.App.Writer, "%s version %s\n", c.App.Name, Version())
	return &tool.Exit{Code: play.ExitPass}
}

// HelpCommand is PROGRAM help [COMMAND [SUBCOMMAND]]: the help of the
// command, as PROGRAM COMMAND [SUBCOMMAND] --help prints it.
func HelpCommand(name string) *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "print the help of " + name + ", or of a command",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Action: func(c *cli.Context) error {
			args := append([]string{c.App.Name}, c.Args().Slice()...)
			return c.App.Run(append(args, "--help"))
		},
	}
}
