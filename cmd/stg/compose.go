package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/spec"
)

func composeCommand() *cli.Command {
	return &cli.Command{
		Name:      "compose",
		Usage:     "flatten a system of components into one spec",
		ArgsUsage: "SYSTEM",
		UsageText: "stg compose SYSTEM [-o FLAT] [--format yaml|dot]",
		Description: `Reads a file of kind system (named components, each a spec, and a structure
of compositions and hidings) and writes the system's ioSTS as a flat spec:
locations q1,q2 (one per component), variables qualified by their component
(Int.b), hidden outputs as internal actions, and every transition named by
its system transition name (o,{i1..ik}), e.g. SM.s_pay+{Int.i_cash} for the
output s_pay of SM received by i_cash of Int, {Int.i_bet} for an input of
the environment (component-systems paper, Def. 7).

Every command that reads a spec (check, dot, generate, symex, purposes) also
reads a system, composed the same way.

Example:
   stg compose examples/slot/system.yaml -o slot.flat.yaml
   stg compose examples/slot/system.yaml --format dot | dot -Tsvg > slot.svg`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "`FORMAT` of the output: yaml or dot"},
		},
		Action: runCompose,
	}
}

func runCompose(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) != 1 {
		return usageError(c, "stg compose needs one SYSTEM file")
	}
	format := c.String("format")
	if format != "yaml" && format != "dot" {
		return usageError(c, "unknown --format %q: want yaml or dot", format)
	}
	if err := refuseOverwrite("stg compose: -o", c.String("output"), args...); err != nil { // files.go
		return inputError(err)
	}
	m, err := composeFile(args[0])
	if err != nil {
		return inputError(err)
	}
	var out []byte
	if format == "dot" {
		out = []byte(emit.DOT(m).String())
	} else if out, err = spec.Marshal(m); err != nil {
		return inputError(err)
	}
	return writeOutput(c.App.Writer, c.String("output"), out)
}

// composeFile loads the system file path and returns its flat spec.
func composeFile(path string) (*spec.Model, error) {
	sys, err := spec.LoadSystem(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, fmt.Errorf("%s: cannot read: %v", path, pe.Err)
		}
		return nil, err
	}
	g, err := compose.Build(sys)
	if err != nil {
		return nil, err
	}
	return g.Model(sys.Name, path)
}

// parseModelOrSystem is spec.ParseModel, except that a system is
// composed into its flat spec.
func parseModelOrSystem(path string, data []byte, sp *spec.Model) (*spec.Model, error) {
	if k, err := spec.PeekKind(path, data); err == nil && k == spec.SystemKind {
		return composeFile(path)
	}
	return spec.ParseModel(path, data, sp)
}

// generateFiles is pipeline.Generate, except that the spec may be a
// system, composed into its flat spec first.
func generateFiles(specPath, purposePath string, opts pipeline.Options) (*pipeline.Result, error) {
	data, err := spec.ReadModelFile(specPath)
	if err != nil {
		return pipeline.Generate(specPath, purposePath, opts) // for its message
	}
	if k, err := spec.PeekKind(specPath, data); err != nil || k != spec.SystemKind {
		return pipeline.Generate(specPath, purposePath, opts)
	}
	s, err := composeFile(specPath)
	if err != nil {
		return nil, err
	}
	return pipeline.GenerateFor(s, purposePath, opts)
}
