package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/tool"
)

func projectCommand() *cli.Command {
	return &cli.Command{
		Name:      "project",
		Usage:     "project system behaviours onto a component, with external constraints",
		ArgsUsage: "SYSTEM",
		UsageText: "stg project SYSTEM --on COMPONENT (--path ID | --all-leaves) [--format text|yaml|dot] [--stats [--format json]] [--solver-timeout DURATION]",
		Description: `Project executes the system symbolically (restricted by inclusion),
takes its maximal behaviours (the leaves of the τ-reduced tree, Def 13 of
the component-systems paper) or the path to node ID (the IDs number the
tree's nodes in creation order; --all-leaves prints the leaves' "system
node ID"), and projects each onto
the sub-system COMPONENT (a component's name, or a sub-system as the
structure prints it, "Int * SM"): the component's steps (Defs 15-16), each
with the external constraint the rest of the system puts on it (the
system's path condition over the component's symbols) and its
complementary twin (the constraint negated), satisfiable or not; then the
test purpose of Def 18 (accept, skip, ⊥). stg purposes SYSTEM --on
COMPONENT writes those purposes as sympurpose files for stg run.

--stats prints the figures only: the system's tree (nodes, transitions,
the coverage of the system's transitions), the behaviours projected, their
steps and twins, how many have a purpose, the time; --stats --format json
prints them as JSON, with the key names of stg symex --stats.

Example:
   stg project examples/slot/system.yaml --on SM --all-leaves`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "on", Usage: "the sub-system `COMPONENT`"},
			&cli.IntFlag{Name: "path", Value: -1, Usage: "project the path to the system's node `ID`"},
			&cli.BoolFlag{Name: "all-leaves", Usage: "project every maximal behaviour of the system"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, yaml or dot; with --stats, text or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the figures of the projection only"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query by `DURATION`"},
		},
		Action: runProject,
	}
}

func runProject(c *cli.Context) error {
	args, err := nArgs(c, 1, "stg project needs one SYSTEM")
	if err != nil {
		return err
	}
	o := tool.ProjectOptions{Format: c.String("format"), Stats: c.Bool("stats"), Projection: tool.Projection{System: args[0], On: c.String("on"),
		Path: c.Int("path"), AllLeaves: c.Bool("all-leaves"), SolverTimeout: c.Duration("solver-timeout")}}
	if err := checkOptions(c, &o); err != nil {
		return err
	}
	return tool.Project(o, c.App.Writer)
}
