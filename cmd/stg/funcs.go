package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// funcFlags are the flags of stg run for the external functions a model
// calls: their implementations and tables.
func funcFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "impl", Usage: "evaluate the external function NAME with the JSON Lines command `NAME=COMMAND` (run in the current directory; repeatable), instead of the model's impl:"},
		&cli.StringFlag{Name: "tables", Usage: "the known tuples of the external functions: the tables file `FILE`, instead of the model's tables"},
		&cli.DurationFlag{Name: "call-timeout", Value: extfunc.DefaultTimeout, Usage: "a call of an implementation command fails after `DURATION`"},
	}
}

// funcRegistry returns the evaluator of the external functions of m: the
// model's tables (or --tables) first, then the model's impl: commands,
// run in the model file's directory (or the --impl commands).
func funcRegistry(c *cli.Context, m *spec.Model, stderr io.Writer) (*extfunc.Registry, error) {
	if c.Duration("call-timeout") <= 0 {
		return nil, usageError(c, "--call-timeout must be positive")
	}
	r, err := tool.FuncRegistry(m, c.String("tables"), c.Duration("call-timeout"), stderr)
	if err != nil {
		return nil, err
	}
	for _, kv := range c.StringSlice("impl") {
		name, cmd, ok := strings.Cut(kv, "=")
		if !ok || name == "" || strings.TrimSpace(cmd) == "" {
			r.Close()
			return nil, usageError(c, "--impl %q: want NAME=COMMAND", kv)
		}
		if err := r.SetCommand(name, cmd); err != nil {
			r.Close()
			return nil, usageError(c, "--impl %s: %v", name, err)
		}
	}
	return r, nil
}

// anchorImpls anchors the impl: commands of the test case tc written
// into outDir (extfunc.AnchorImpls).
func anchorImpls(tc *spec.Model, outDir string) error { return extfunc.AnchorImpls(tc, outDir) }

// outputDir is the directory of the output file path, "" for stdout.
func outputDir(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Dir(path)
}
