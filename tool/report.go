package tool

import (
	"fmt"
	"io"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/report"
)

// MergeOptions are the options of stg report merge REPORT...: the
// reports of a campaign's shards (all JUnit XML or all JSON) and the
// Output file of the merged report ("" for none).
type MergeOptions struct {
	Files  []string
	Output string
}

// Merge is stg report merge: it puts the shards' runs back in campaign
// order, prints the campaign's verdict and table, and writes the merged
// report; the exit code is the campaign's verdict, as stg run's.
func Merge(opts MergeOptions, stdout io.Writer) error {
	if len(opts.Files) == 0 {
		return UsageError("stg report merge", "stg report merge needs the REPORT files of the shards")
	}
	m, err := report.Merge(opts.Files)
	if err != nil {
		return InputError(fmt.Errorf("stg report merge: %v", err))
	}
	m.Print(stdout)
	if opts.Output != "" {
		if err := m.Write(opts.Output); err != nil {
			return InputError(fmt.Errorf("writing the merged report: %v", err))
		}
	}
	switch m.Verdict {
	case "Fail":
		return &Exit{Code: play.ExitFail}
	case "Inconc":
		return &Exit{Code: play.ExitInconc}
	case "WeakPass":
		return &Exit{Code: play.ExitWeakPass}
	case "error":
		return &Exit{Code: play.ExitError, Err: fmt.Errorf("stg report merge: a run ended in an error")}
	}
	return nil
}
