package tool

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec"
)

// CheckTables validates the tables file path (extfunc.CheckTables: with
// the spec sp, against its functions; without, against the signatures
// its rows show) and returns the line stg check prints about it.
func CheckTables(path string, sp *spec.Model) (string, error) {
	funcs, err := extfunc.CheckTables(path, sp)
	if err != nil {
		return "", err
	}
	var fs []string
	for _, f := range funcs {
		if len(f.Table) > 0 {
			fs = append(fs, fmt.Sprintf("%s: %s", f, nounCount(len(f.Table), "row")))
		}
	}
	s := fmt.Sprintf("tables %s: %s", path, nounCount(len(fs), "function"))
	if len(fs) > 0 {
		s += " (" + strings.Join(fs, ", ") + ")"
	}
	s += ", no two rows with equal inputs and different results"
	if sp == nil {
		return s + " (signatures read from the rows: stg check SPEC TABLES checks them against the spec's)", nil
	}
	return s + ", consistent with spec " + sp.Name, nil
}

// nounCount returns "1 row", "2 rows".
func nounCount(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
