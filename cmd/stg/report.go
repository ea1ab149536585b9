package main

import (
	"fmt"
	"io"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/report"
	"github.com/stg-tool/stg/tool"
	"github.com/urfave/cli/v2"
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
	files, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(files) == 0 {
		return usageError(c, "stg report merge needs the REPORT files of the shards")
	}
	m, err := report.Merge(files)
	if err != nil {
		return tool.InputError(fmt.Errorf("stg report merge: %v", err))
	}
	return finishMerge(c, m.Verdict, m.Print, m.Write)
}

// finishMerge prints the merge, writes it with -o and sets the exit code.
func finishMerge(c *cli.Context, verdict string, print func(io.Writer), write func(string) error) error {
	print(c.App.Writer)
	if path := c.String("output"); path != "" {
		if err := write(path); err != nil {
			return tool.InputError(fmt.Errorf("writing the merged report: %v", err))
		}
	}
	switch verdict {
	case "Fail":
		return &tool.Exit{Code: exitFail}
	case "Inconc":
		return &tool.Exit{Code: exitInconc}
	case "WeakPass":
		return &tool.Exit{Code: play.ExitWeakPass}
	case "error":
		return &tool.Exit{Code: exitError, Err: fmt.Errorf("stg report merge: a run ended in an error")}
	}
	return nil
}
