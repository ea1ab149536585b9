package cmdline

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/stg-tool/stg/tool"
	"github.com/urfave/cli/v2"
)

// Interspersed returns the command line args (as os.Args: the program
// first) with the flags of the command it names moved before that
// command's positional arguments, so that flags may be written before
// or after the arguments on every command ("stg report merge s1.json
// s2.json -o all.json"). urfave/cli, like package flag, stops at the
// first positional argument. A "--" ends the flags: it and everything
// after it stay last, untouched ("stg run TESTCASE --runs 3 -- COMMAND
// -v"). A flag the command does not define is moved as it is, for the
// parser to report; a flag that lacks its value is a usage error here.
func Interspersed(app *cli.App, args []string) ([]string, error) {
	cmds := app.Commands
	i := 1
	for i < len(args) && isFlag(args[i]) {
		i++ // the root's flags: --help, --version
	}
	if i == len(args) {
		return args, nil
	}
	cmd := findCommand(cmds, args[i])
	if cmd == nil {
		return args, nil
	}
	path := []string{app.Name, cmd.Name}
	i++
	for i < len(args) {
		sub := findCommand(cmd.Subcommands, args[i])
		if sub == nil {
			break
		}
		cmd, i, path = sub, i+1, append(path, sub.Name)
	}
	flags, pos, err := splitFlags(cmd.Flags, args[i:])
	if err != nil {
		return nil, tool.UsageError(strings.Join(path, " "), "%v", err)
	}
	return slices.Concat(args[:i:i], flags, pos), nil
}

// splitFlags splits args into the flags (with their values) and the
// positional arguments, which keep "--" and what follows it.
func splitFlags(defined []cli.Flag, args []string) (flags, pos []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(pos, args[i:]...), nil
		case !isFlag(a):
			pos = append(pos, a)
		case strings.Contains(a, "=") || !takesValue(defined, a):
			flags = append(flags, a)
		case i+1 == len(args):
			return nil, nil, fmt.Errorf("flag needs an argument: %s", a)
		default:
			flags = append(flags, a, args[i+1])
			i++
		}
	}
	return flags, pos, nil
}

func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' && a != "--" }

// takesValue says whether the flag written a is defined in flags and
// takes a value (a boolean flag does not).
func takesValue(flags []cli.Flag, a string) bool {
	f := lookupFlag(flags, strings.TrimLeft(a, "-"))
	if f == nil {
		return false
	}
	v, ok := f.(cli.DocGenerationFlag)
	return ok && v.TakesValue()
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func lookupFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// Args returns the positional arguments of c without the "--" that
// ends the flags. Interspersed has moved every flag before them, where
// urfave/cli parses it.
func Args(c *cli.Context) []string {
	args := c.Args().Slice()
	if i := slices.Index(args, "--"); i >= 0 {
		return slices.Concat(args[:i], args[i+1:])
	}
	return args
}

// ArgsAround returns the arguments of c before and after "--", and
// whether there was one.
func ArgsAround(c *cli.Context) (before, after []string, dash bool) {
	args := c.Args().Slice()
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i], args[i+1:], true
	}
	return args, nil, false
}

// CommandPath returns the command of c as typed: "stg", "stg generate",
// "stg report merge".
func CommandPath(c *cli.Context) string {
	var names []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" {
			names = append(names, ctx.Command.Name)
		}
	}
	slices.Reverse(names)
	if len(names) == 0 || names[0] != c.App.Name {
		names = append([]string{c.App.Name}, names...)
	}
	return strings.Join(names, " ")
}

// UsageError is a misuse of the command line of c (exit 3): one line,
// which names the command's help (tool.UsageError).
func UsageError(c *cli.Context, format string, args ...any) error {
	return tool.UsageError(CommandPath(c), format, args...)
}

// OnUsageError reports an error of urfave/cli's flag parsing (an unknown
// flag, a flag without its value, a value of the wrong type) as
// UsageError does, instead of the command's whole help.
func OnUsageError(c *cli.Context, err error, _ bool) error {
	msg := goFlagName.ReplaceAllString(err.Error(), "$1--$2") // -format: package flag's spelling
	if strings.HasPrefix(msg, "invalid value ") {
		if f := flagNamed(c, msg); f != nil {
			msg += flagHint(f, flagValue(msg), err) // suggest.go: only a duration flag gets the duration hint
		}
	}
	return UsageError(c, "%s", msg)
}

// flagNamed returns the flag of c that the error message msg names
// ("... for flag --runs: ..."), nil when none.
func flagNamed(c *cli.Context, msg string) cli.Flag {
	m := msgFlagName.FindStringSubmatch(msg)
	if m == nil || c.Command == nil {
		return nil
	}
	return lookupFlag(c.Command.Flags, m[1])
}

var msgFlagName = regexp.MustCompile(`for flag --?([a-z][a-z0-9-]*)`)

var goFlagName = regexp.MustCompile(`(: |flag )-([a-z][a-z0-9-]+)`)

// flagValue returns the value quoted in flag's error message `invalid
// value "200" for flag -timeout: ...`.
func flagValue(msg string) string {
	_, rest, _ := strings.Cut(msg, `"`)
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// Conventions gives every command of cmds, and their subcommands, the
// conventions of the command line: OnUsageError, placeholders that name
// the value (placeholders) and a usage line that lists every flag
// (fullUsage). path is the command line up to cmds ("stg").
func Conventions(cmds []*cli.Command, path string) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = OnUsageError
		}
		placeholders(c.Flags)
		if len(c.Subcommands) == 0 {
			c.UsageText = fullUsage(c, path+" "+c.Name)
		}
		Conventions(c.Subcommands, path+" "+c.Name)
	}
}

// Output is the value of -o/--output: "" (stdout) for "-", as Unix tools
// read it, so that "-o -" does not write a file named "-".
func Output(c *cli.Context) string {
	if v := c.String("output"); v != "-" {
		return v
	}
	return ""
}
