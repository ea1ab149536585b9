package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func dotCommand() *cli.Command {
	return &cli.Command{
		Name:      "dot",
		Usage:     "draw a spec, purpose or testcase with Graphviz",
		ArgsUsage: "MODEL | SPEC PURPOSE",
		UsageText: "stg dot MODEL [-o OUT] [--format dot|svg|png] [--all-edges]\nstg dot [--spec SPEC] PURPOSE [-o OUT] [--format dot|svg|png]",
		Description: `Dot writes a drawing of a model in Graphviz's DOT language, or renders it
as SVG or PNG with Graphviz's dot program. Locations are nodes (the
initial one has an arrow from nowhere, Accept locations are double
circles, verdicts are green, red and orange boxes); each transition is
an edge "?in(p) [guard] / x := e". In a spec or purpose ? marks the SUT's
inputs (solid edges) and ! its outputs (dashed); a testcase shows the
tester's view: !send (solid), ?receive (dashed). A purpose is read with
its spec, given by --spec or as the first of two files; alone, with the
one spec of its directory (spec.yaml when there are several).

In a testcase, the outputs that lead to Fail whatever their values are
not drawn one edge each: their location says "any other output → Fail"
(--all-edges draws them). A large model is laid out left to right, each
edge labelled by its action and transition index ("?result t6"), a legend
table giving the full labels.

Example:
   $ stg dot examples/cmp/spec.yaml -o cmp.dot
   $ stg dot --spec examples/cmp/spec.yaml examples/cmp/purpose.yaml --format svg -o purpose.svg`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "format", Value: "dot", Usage: "`FORMAT` of the output: dot, svg or png (svg and png need Graphviz)"},
			&cli.StringFlag{Name: "spec", Usage: "the `SPEC` of the purpose to draw (default: the spec in the purpose's directory)"},
			&cli.BoolFlag{Name: "all-edges", Usage: "draw every transition of a testcase, also each output that leads to Fail"},
			&cli.StringFlag{Name: "coverage", Usage: "colour the edges of a testcase by how often the runs of the JSON `REPORT` (stg run --report-json) took them; grey: never, red: proved unreachable"},
		},
		Action: runDot,
	}
}

func runDot(c *cli.Context) error {
	return tool.Dot(tool.DotOptions{Files: cmdline.Args(c), Spec: c.String("spec"), Output: cmdline.Output(c), Format: c.String("format"),
		AllEdges: c.Bool("all-edges"), Coverage: c.String("coverage")}, c.App.Writer)
}
