package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
)

// The figures that stg abstract, tour, compose and project print with
// --stats --format json share their key names with stg symex and stg
// purposes: nodes (of a symbolic execution tree), transitions, states,
// coverage as {covered, total, percent} and time_ms.

// statsCoverage is how many of the spec's transitions a result takes.
type statsCoverage struct {
	Covered   int      `json:"covered"`
	Total     int      `json:"total"`
	Percent   float64  `json:"percent"`
	Uncovered []string `json:"uncovered"` // names, in the spec's order
}

func newStatsCoverage(covered, total int, uncovered []string) statsCoverage {
	p := 100.0
	if total > 0 {
		p = 100 * float64(covered) / float64(total)
	}
	return statsCoverage{Covered: covered, Total: total, Percent: p, Uncovered: append([]string{}, uncovered...)}
}

// timeMS is d in milliseconds, as time_ms.
func timeMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeStatsJSON writes the figures v as indented JSON.
func writeStatsJSON(w io.Writer, v any) error {
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

// checkFormat checks --format of a command that prints one of formats,
// or with --stats text or json.
func checkFormat(c *cli.Context, format string, formats []string) error {
	if c.Bool("stats") {
		formats = []string{"text", "json"}
	}
	if !slices.Contains(formats, format) {
		with := ""
		if c.Bool("stats") {
			with = " with --stats"
		}
		return usageError(c, "unknown --format %q%s: want %s", format, with, orList(formats))
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

// varsFlag is --vars of stg abstract and stg tour.
func varsFlag() cli.Flag {
	return &cli.StringFlag{Name: "vars", Usage: "the abstraction variables `X,Y` (instead of the rule's)"}
}

// varsOf returns the variables of --vars, nil without it.
func varsOf(c *cli.Context) []string {
	var vars []string
	if v := c.String("vars"); v != "" {
		for _, x := range strings.Split(v, ",") {
			vars = append(vars, strings.TrimSpace(x))
		}
	}
	return vars
}
