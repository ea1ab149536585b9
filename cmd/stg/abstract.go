package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/tool"
)

func abstractCommand() *cli.Command {
	return &cli.Command{
		Name:      "abstract",
		Usage:     "predicate abstraction of a spec guided by a test purpose (LTG/GeneSyst)",
		ArgsUsage: "SPEC PURPOSE",
		UsageText: "stg abstract SPEC PURPOSE [--vars X,Y] [--no-filter] [--reachable] [--format text|yaml|dot] [--stats [--format json]] [--solver-timeout DURATION]",
		Description: `Abstract reads SPEC as a behavioural model (every transition an elementary
guarded action, the invariant: and ranges as I) and PURPOSE as a labelled
transition system (action sets, where: state predicates on the state
entered, accept: as the final states), and prints the abstraction of the
paper on test purposes and predicate abstraction (§VI-VII): the actions
O^P the purpose names, the abstraction variables X^A = X^A_sp ∪ X^A_op
(a variable some action of O^P modifies, dropped when the others determine
it under I; --vars overrides), the partition SD^x of each, the abstract
states (cells consistent with I) and the abstract transitions, one per
elementary action, decided by Z3. The counts are those of Table I: proof
obligations, proved absent by a weak prover that ignores I, unproved
(kept by it), filtered (refuted exactly, with I). --no-filter keeps the
filtered transitions; --reachable keeps the reachable states only;
--stats prints the Table I row, with the sizes of the synchronised product
SP with the purpose, with and without filtering; --stats --format json
prints them as JSON, with the key names of stg symex --stats (states,
transitions, time_ms).

Example:
   stg abstract examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml
   stg abstract --format dot examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml | dot -Tsvg > a.svg`,
		Flags: []cli.Flag{
			varsFlag(),
			&cli.BoolFlag{Name: "no-filter", Usage: "keep the transitions only the exact check refutes"},
			&cli.BoolFlag{Name: "reachable", Usage: "keep only the abstract states reachable from an initial one"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, yaml or dot; with --stats, text or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the columns of Table I instead"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query to `DURATION` (an undecided query keeps the state or transition)"},
		},
		Action: runAbstract,
	}
}

func runAbstract(c *cli.Context) error {
	args, err := nArgs(c, 2, "stg abstract needs SPEC and PURPOSE")
	if err != nil {
		return err
	}
	o := tool.AbstractOptions{Spec: args[0], Purpose: args[1], Format: c.String("format"), Stats: c.Bool("stats"), SolverTimeout: c.Duration("solver-timeout"),
		Abstraction: predabs.Options{NoFilter: c.Bool("no-filter"), Reachable: c.Bool("reachable"), Vars: varsOf(c)}}
	if err := checkOptions(c, &o); err != nil {
		return err
	}
	return tool.Abstract(o, c.App.Writer)
}
