package tool

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stg-tool/stg/symex"
)

// The figures that stg symex, purposes, abstract, tour, compose and
// project print with --stats --format json share their key names:
// nodes (of a symbolic execution tree), transitions, states, coverage
// as {covered, total, percent, uncovered} and time_ms.

// Coverage is how many of a model's transitions a result takes, as
// --stats --format json prints it.
type Coverage struct {
	Covered   int      `json:"covered"`
	Total     int      `json:"total"`
	Percent   float64  `json:"percent"`
	Uncovered []string `json:"uncovered"` // names, in the model's order
}

// coverageOf is c with its percentage.
func coverageOf(c symex.Coverage) Coverage {
	return Coverage{Covered: c.Covered, Total: c.Total, Percent: c.Percent(), Uncovered: append([]string{}, c.Uncovered...)}
}

// timeMS is d in milliseconds, as time_ms.
func timeMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeJSON writes the figures v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// percent returns n/d in percent for people: to one decimal, without a
// trailing ".0" ("53.3 %", "50 %"), never 100 % unless n == d nor 0 %
// unless n == 0; "-" when d is 0.
func percent(n, d int) string {
	if d == 0 {
		return "- %"
	}
	p := math.Round(1000*float64(n)/float64(d)) / 10
	switch {
	case n < d && p >= 100:
		p = 99.9
	case n > 0 && p <= 0:
		p = 0.1
	}
	return strconv.FormatFloat(p, 'f', -1, 64) + " %"
}

// ratio returns "n/d (p %)", p as percent gives it: "8/15 (53.3 %)".
func ratio(n, d int) string { return fmt.Sprintf("%d/%d (%s)", n, d, percent(n, d)) }

// checkFormat checks the format of a command that prints one of
// formats, or with stats text or json.
func checkFormat(format string, stats bool, formats ...string) error {
	with := ""
	if stats {
		formats, with = []string{"text", "json"}, " with --stats"
	}
	if !slices.Contains(formats, format) {
		return fmt.Errorf("unknown --format %q%s: want %s", format, with, orList(formats))
	}
	return nil
}

// orList returns "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// statsFormat is the default format of a command whose output is
// written in def, or its figures (stats) in text: format, or text when
// stats and format is "" or def.
func statsFormat(format, def string, stats bool) string {
	switch {
	case stats && (format == "" || format == def):
		return "text"
	case format == "":
		return def
	}
	return format
}
