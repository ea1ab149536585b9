package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func composeCommand() *cli.Command {
	return &cli.Command{
		Name:      "compose",
		Usage:     "flatten a system of components into one spec",
		ArgsUsage: "SYSTEM",
		UsageText: "stg compose SYSTEM [-o FLAT] [--format yaml|dot] [--stats [--format json]]",
		Description: `Reads a file of kind system (named components, each a spec, and a structure
of compositions and hidings) and writes the system's ioSTS as a flat spec:
locations q1,q2 (one per component), variables qualified by their component
(Int.b), hidden outputs as internal actions, and every transition named by
its system transition name (o,{i1..ik}), e.g. SM.s_pay+{Int.i_cash} for the
output s_pay of SM received by i_cash of Int, {Int.i_bet} for an input of
the environment (component-systems paper, Def. 7).

--stats prints the size of the flat spec instead (components, locations,
transitions, internal ones, variables, actions, time); --stats --format
json prints it as JSON, with the key names of stg symex --stats.

Every command that reads a spec (check, dot, generate, symex, purposes) also
reads a system, composed the same way.

Example:
   stg compose examples/slot/system.yaml -o slot.flat.yaml
   stg compose examples/slot/system.yaml --format dot | dot -Tsvg > slot.svg`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "`FORMAT` of the output: yaml or dot; with --stats, text or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the size of the flat spec only"},
		},
		Action: runCompose,
	}
}

func runCompose(c *cli.Context) error {
	args, err := nArgs(c, 1, "stg compose needs one SYSTEM file")
	if err != nil {
		return err
	}
	o := tool.ComposeOptions{System: args[0], Output: cmdline.Output(c), Format: c.String("format"), Stats: c.Bool("stats")}
	if err := checkOptions(c, &o); err != nil {
		return err
	}
	return tool.Compose(o, c.App.Writer)
}
