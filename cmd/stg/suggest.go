package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// version returns the version of this build of stg: its module version
// when built from a tagged module (go install ...@v1.2.3), else the VCS
// revision go build stamped, else "devel".
func version() string {
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

// rootAction runs when the first argument names no command: without
// arguments it prints the help; otherwise the argument is an unknown
// command, reported with the nearest command's name (exit 3).
func rootAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	name := c.Args().First()
	msg := fmt.Sprintf("stg: unknown command %q", name)
	if near := nearestCommand(c.App.Commands, name); near != "" {
		msg += fmt.Sprintf("; did you mean stg %s?", near)
	}
	return &tool.Exit{Code: exitError, Err: fmt.Errorf("%s (see stg --help)", msg)}
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

// swappedSpecPurpose says, when the files given as SPEC and PURPOSE of
// command cmd are a purpose and a spec, that they are the wrong way
// round; it returns nil otherwise (the loaders then say what is wrong).
func swappedSpecPurpose(cmd, specPath, purposePath string) error {
	kind := func(path string) (spec.ModelKind, bool) {
		data, err := spec.ReadModelFile(path)
		if err != nil {
			return 0, false
		}
		k, err := spec.PeekKind(path, data)
		return k, err == nil
	}
	sk, ok1 := kind(specPath)
	pk, ok2 := kind(purposePath)
	if !ok1 || !ok2 {
		return nil
	}
	isPurpose := sk == spec.PurposeKind || sk == spec.SymPurposeKind
	isSpec := pk == spec.SpecKind || pk == spec.SystemKind
	if isPurpose && isSpec {
		return fmt.Errorf("%s is a %s and %s a %s: the spec comes first: stg %s %s %s", specPath, sk, purposePath, pk, cmd, purposePath, specPath)
	}
	return nil
}

// flagHint returns a hint on a value that flag f refused with err: a
// bare number for a duration needs a unit; an integer out of range is
// told its bounds. Only a duration flag gets the duration hint.
func flagHint(f cli.Flag, value string, err error) string {
	switch f.(type) {
	case *cli.DurationFlag:
		return durationHint(value)
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

// durationHint returns "; did you mean 200ms?" when s, given where a
// duration is expected, is a bare number such as 200 (Go durations need
// a unit), and "" otherwise.
func durationHint(s string) string {
	if _, err := strconv.ParseFloat(s, 64); err != nil || strings.ContainsAny(s, "eEnNiI") {
		return ""
	}
	return fmt.Sprintf("; a duration needs a unit: did you mean %sms (or %ss)?", s, s)
}

// reportWritable fails when the report file path ("" for none) cannot
// be written, so that stg run says so before any run rather than after
// all of them. It leaves no file behind that was not there.
func reportWritable(path string) error {
	if path == "" {
		return nil
	}
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--report %s: cannot write the report: %v", path, errors.Unwrap(err))
	}
	f.Close()
	if os.IsNotExist(statErr) {
		os.Remove(path)
	}
	return nil
}

// printVersion prints the version of stg and ends it (exit 0) when
// --version is given, before any command.
func printVersion(c *cli.Context) error {
	if !c.Bool("version") {
		return nil
	}
	fmt.Fprintf(c.App.Writer, "%s version %s\n", c.App.Name, version())
	return &tool.Exit{Code: exitPass}
}

// helpCommand is stg help [COMMAND [SUBCOMMAND]]: the help of the
// command, as stg COMMAND [SUBCOMMAND] --help prints it.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "print the help of stg, or of a command",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Action: func(c *cli.Context) error {
			args := append([]string{c.App.Name}, c.Args().Slice()...)
			return c.App.Run(append(args, "--help"))
		},
	}
}
