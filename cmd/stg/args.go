package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// positionalArgs returns the positional arguments of c, parsing the
// flags written after them. urfave/cli (like package flag) stops at the
// first positional argument, but docs/reference.md#command-line writes the flags last
// ("stg dot MODEL -o OUT"). A "--" ends the flags; everything after it
// is positional.
func positionalArgs(c *cli.Context) ([]string, error) {
	var pos []string
	args := c.Args().Slice()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		f := lookupFlag(c.Command.Flags, name)
		if f == nil {
			return nil, fmt.Errorf("flag provided but not defined: %s", a)
		}
		if _, isBool := f.(*cli.BoolFlag); isBool && !hasValue {
			value, hasValue = "true", true
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, fmt.Errorf("flag needs an argument: %s", a)
			}
			i++
			value = args[i]
		}
		// urfave/cli keeps one flag.Value per alias and reconciles them
		// only while parsing; set them all.
		for _, n := range f.Names() {
			if err := c.Set(n, value); err != nil {
				return nil, fmt.Errorf("invalid value %q for flag %s: %v%s", value, a, err, flagHint(f, value, err)) // suggest.go
			}
		}
	}
	return pos, nil
}

func lookupFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// usageError is a misuse of a command line (exit 3).
func usageError(c *cli.Context, format string, args ...any) error {
	return &exitCode{code: exitError, err: fmt.Errorf("%s (see stg %s --help)", fmt.Sprintf(format, args...), c.Command.Name)}
}
