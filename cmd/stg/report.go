package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "combine the reports of a campaign's shards",
		Subcommands: []*cli.Command{{
			Name:      "merge",
			Usage:     "merge the JUnit or JSON reports of stg run --shard into one verdict and one table",
			ArgsUsage: "REPORT...",
			Description: `Merge reads the reports that the shards of one campaign wrote (stg run
--shard I/N --report FILE or --report-json FILE; all JUnit XML or all
JSON), puts their runs back in campaign order and prints the campaign's
verdict with its counts, and a table: for JSON reports, how many runs took
each transition of the test case; for JUnit reports, the failing runs.
The merged report (-o FILE, in the format of the inputs) equals the report
of the unsharded campaign, but for times. Runs missing from the shards are
named. Exit codes as stg run: 0 Pass, 1 Fail, 2 Inconc, 3 error.

Example (four CI jobs, then one merge):
   stg run tc.yaml --seed 1 --runs 400 --shard 2/4 --report-json shard-2.json -- ./sut
   stg report merge shard-*.json -o campaign.json`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the merged report to `FILE`"},
			},
			Action: mergeReports,
		}},
	}
}

// mergeReports is the action of stg report merge.
func mergeReports(c *cli.Context) error {
	return tool.Merge(tool.MergeOptions{Files: cmdline.Args(c), Output: cmdline.Output(c)}, c.App.Writer)
}
