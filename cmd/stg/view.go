package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func viewCommand() *cli.Command {
	return &cli.Command{
		Name:      "view",
		Usage:     "write a model, tree or abstraction as an interactive HTML page",
		ArgsUsage: "FILE | SPEC PURPOSE",
		UsageText: "stg view FILE [--spec SPEC] [--coverage REPORT.json] [--trace TRACE.jsonl] [-o PAGE.html]",
		Description: `View writes one self-contained HTML page (inline SVG, style and script;
it fetches nothing, opens from disk and can be attached to a CI run) that
shows FILE as a graph laid out by Graphviz's dot: a spec, purpose, test
case, symbolic purpose or system, a symbolic tree (stg symex --format
json or yaml) or an abstraction (stg abstract --format yaml).

Edges carry a short label, the action and a transition id ("?result t6",
t6 the 7th transition of the file); clicking or hovering an edge shows its
guard, assignments and, in a test case, the spec transition behind it.
The edges of a test case into Fail are folded, a check box shows them.
Drag to pan, wheel to zoom, search by location or action.

--coverage REPORT.json (stg run --report-json, or stg report merge) marks
each transition of a test case with its count, the never-taken ones with
what the report's search found (unreachable, or reachable by a path).
--trace TRACE.jsonl (stg run --save-trace) lists the run's steps; stepping
highlights the current location and transition, and the failing
observation.

Example:
   $ stg generate examples/jobs/spec.yaml examples/jobs/purpose-park.yaml -o park.tc.yaml
   $ stg run park.tc.yaml --runs 10 --report-json park.json -- ./jobs-sut
   $ stg view park.tc.yaml --coverage park.json -o park.html`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the page to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "spec", Usage: "the `SPEC` of a purpose (default: the spec in the purpose's directory)"},
			&cli.StringFlag{Name: "coverage", Usage: "mark the transitions of a test case with the coverage of the JSON `REPORT` (stg run --report-json)"},
			&cli.StringFlag{Name: "trace", Usage: "list and step through the run of the trace `FILE` (stg run --save-trace)"},
		},
		Action: runView,
	}
}

func runView(c *cli.Context) error {
	return tool.View(tool.ViewOptions{Files: cmdline.Args(c), Spec: c.String("spec"), Output: cmdline.Output(c),
		Coverage: c.String("coverage"), Trace: c.String("trace")}, c.App.Writer)
}
