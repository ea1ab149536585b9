package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func purposesCommand() *cli.Command {
	return &cli.Command{
		Name:      "purposes",
		Usage:     "build symbolic test purposes from a coverage criterion",
		ArgsUsage: "SPEC",
		UsageText: "stg purposes SPEC (--length N | --k-inclusion K) [--split] [-o OUT|DIR] [--format yaml|dot|text] [--stats [--format json]]\n   stg purposes SYSTEM --on COMPONENT [--path ID | --all-leaves] [-o DIR]",
		Description: `Purposes builds a symbolic test purpose (AGATHA, Def. 13) from a criterion
on the spec's symbolic execution tree: its accept nodes, each named by its
path of transition names (a sympurpose file). --length N accepts every
path of length N ending with an output (quiescence included) and the
one-output extensions of those ending with an input (TG_N, Def. 18);
--k-inclusion K is --length K*p, p the longest path of the tree restricted
by inclusion (Def. 19). --split writes one purpose per accept node, into
the directory -o DIR, named after the spec, the criterion and the accept
path (atm-paper-TG2-deposit-ask-cash.yaml); their spec is written relative
to that directory.

With --on COMPONENT, SYSTEM is a system file: its maximal behaviours (or the
path to its node ID, --path ID) are projected onto the sub-system COMPONENT
(stg project) and each projection gives the test purpose of Def 18 of the
component-systems paper, a sympurpose of the component's own spec whose
accept path carries the external constraint the rest of the system puts on
the component (0 < s_bet.v <= 100 ...): stg run plays it against the
component's SUT alone, sending only what the system would send. With -o DIR
one file per purpose goes into DIR; else they are printed.

Example:
   stg purposes examples/atm-paper/spec.yaml --k-inclusion 1 --stats
   stg purposes examples/atm-paper/spec.yaml --length 2 --split -o purposes/
   stg run purposes/atm-paper-TG2-deposit-ask-cash.yaml -- ./atm-sut
   stg purposes examples/slot/system.yaml --on SM -o purposes/`,
		Flags: append(treeFlags(tool.DefaultPurposesMaxNodes,
			&cli.StringFlag{Name: "delta", Value: "sink", Usage: "quiescence leads to a `sink`, loops (purposes go on after it), or none (left out)"},
			&cli.StringFlag{Name: "functions", Usage: "calls of external functions: `summaries` (the default when a function has a table or an implementation) or uninterpreted"}),
			&cli.IntFlag{Name: "length", Usage: "accept the paths of length `N` (TG_N)"},
			&cli.IntFlag{Name: "k-inclusion", Usage: "the `K`-inclusion criterion"},
			&cli.BoolFlag{Name: "split", Usage: "one purpose per accept node (needs -o DIR)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (a directory with --split)"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "`FORMAT`: yaml (sympurpose), dot, text (the labelled tree), json with --stats"},
			&cli.BoolFlag{Name: "stats", Usage: "print the counts of nodes, accept, skip and bottom only"},
			&cli.StringFlag{Name: "on", Usage: "SYSTEM is a system: purposes for its sub-system `COMPONENT` (Def 18)"},
			&cli.IntFlag{Name: "path", Value: -1, Usage: "with --on: project the path to the system's node `ID` only"},
			&cli.BoolFlag{Name: "all-leaves", Usage: "with --on: project every maximal behaviour (the default)"},
		),
		Action: runPurposes,
	}
}

func runPurposes(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	o := tool.PurposesOptions{Length: c.Int("length"), KInclusion: c.Int("k-inclusion"), Split: c.Bool("split"), Output: cmdline.Output(c),
		Format: c.String("format"), Stats: c.Bool("stats"), Tree: treeOptions(c), On: c.String("on"), Path: c.Int("path"), AllLeaves: c.Bool("all-leaves")}
	what := "SPEC"
	if o.On != "" {
		what = "SYSTEM"
		if err := checkTreeOptions(c, &o); err != nil { // the criterion before the SYSTEM
			return err
		}
	}
	if len(args) != 1 {
		return usageError(c, "stg purposes needs one %s", what)
	}
	o.Spec = args[0]
	if err := checkTreeOptions(c, &o); err != nil {
		return err
	}
	return tool.Purposes(o, c.App.Writer, c.App.ErrWriter)
}
