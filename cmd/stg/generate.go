package main

import (
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/pipeline"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "select a test case from a spec and a test purpose",
		ArgsUsage: "SPEC PURPOSE",
		Description: `Builds the test case of the STG method: suspension and canonical tester of
SPEC, product with PURPOSE, approximate co-reachability of Accept, Keep/Inconc
selection, mirroring. The test case is written as YAML (read by stg run and
stg dot), Graphviz DOT, or a Go _test.go file.

Example:
   stg generate examples/cmp/spec.yaml examples/cmp/purpose.yaml -o cmp.tc.yaml
   stg generate --format dot examples/cmp/spec.yaml examples/cmp/purpose.yaml | dot -Tsvg > tc.svg
   stg generate --format go --package cmp_test -o cmp_stg_test.go examples/cmp/spec.yaml examples/cmp/purpose.yaml`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "o", Aliases: []string{"output"}, Usage: "write to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "yaml, dot or go"},
			&cli.StringFlag{Name: "domain", Value: "polyhedra", Usage: "abstract domain of the co-reachability analysis: none, interval or polyhedra"},
			&cli.StringFlag{Name: "package", Value: "", Usage: "package clause of --format go (default: NAME_test from the purpose)"},
			&cli.BoolFlag{Name: "explain", Usage: "print the reach and coreach predicate of every product location on stderr"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print each stage's size and duration on stderr"},
		},
		Action: func(c *cli.Context) error {
			args, err := positionalArgs(c)
			if err != nil {
				return usageError(c, "%v", err)
			}
			if len(args) != 2 {
				return usageError(c, "stg generate needs SPEC and PURPOSE")
			}
			opts := pipeline.Options{Domain: c.String("domain"), Warn: c.App.ErrWriter}
			switch opts.Domain {
			case "none", "interval", "polyhedra":
			default:
				return usageError(c, "unknown --domain %q: want none, interval or polyhedra", opts.Domain)
			}
			if c.Bool("verbose") {
				opts.Progress = c.App.ErrWriter
			}
			if c.Bool("explain") {
				opts.Explain = c.App.ErrWriter
			}
			format := c.String("format")
			switch format {
			case "yaml", "dot", "go":
			default:
				return usageError(c, "unknown --format %q: want yaml, dot or go", format)
			}
			res, err := pipeline.Generate(args[0], args[1], opts)
			if err != nil {
				return inputError(err)
			}
			out, err := pipeline.Encode(res.Testcase, format, c.String("package"))
			if err != nil {
				return inputError(err)
			}
			return writeOutput(c.App.Writer, c.String("o"), out)
		},
	}
}

// writeOutput writes data to the file named path, or to w when path is "".
func writeOutput(w io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := w.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return inputError(err)
	}
	return nil
}
