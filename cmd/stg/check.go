package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
	"github.com/urfave/cli/v2"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "validate a spec (and a purpose) or a testcase, print a summary",
		ArgsUsage: "SPEC [PURPOSE] | TESTCASE | [SPEC] TABLES",
		UsageText: "stg check SPEC [PURPOSE]\nstg check TESTCASE\nstg check [SPEC] TABLES",
		Description: `Check reads the model files and checks names, types and the rules of each
kind of model (docs/reference.md#model-files-2), then asks the solver whether the spec (or
testcase) is deterministic: no two transitions leaving a location with the
same action may have guards that hold together, and the initial condition
must have a solution. A testcase must also be complete for receives (every
SUT output and quiescence leads somewhere, in every non-verdict location)
and name its verdict locations Pass, Fail and Inconc. Every problem is
printed as FILE:LINE:COL: message on stderr and the exit code is 3;
otherwise a summary is printed and the exit code is 0. A purpose is read
with its spec.

A tables file (kind: tables: known rows of external functions) is checked
against the signatures of SPEC's functions and against SPEC's own rows, or
alone against signatures read from its rows (each column one type): rows
of the wrong arity or type, and two rows with equal inputs and different
results, are FILE:LINE:COL errors.

A pair of transitions (or a receive gap) that the solver cannot decide
within --solver-timeout per query (non-linear guards, external functions)
is printed as FILE:LINE:COL: warning: message on stderr; it does not
change the exit code, and the summary says how many were undecided.

Example:
   $ stg check examples/cmp/spec.yaml examples/cmp/purpose.yaml
   spec cmp: 4 locations (Rx initial, Ry, Cmp, End), 5 transitions, ...
   purpose cmp-reach-ok2: 3 locations (Wait initial, Accept accept, Sink), ...`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query to `DURATION`; an undecided query is a warning"},
		},
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) < 1 || len(args) > 2 {
		return usageError(c, "stg check takes a spec and optionally a purpose, or a testcase")
	}
	if isTablesFile(args[len(args)-1]) { // tables.go
		return runCheckTables(c, args)
	}
	if len(args) == 2 {
		if err := swappedSpecPurpose("check", args[0], args[1]); err != nil { // suggest.go
			return tool.InputError(err)
		}
	}
	m, err := loadModel(args[0], nil)
	if err != nil {
		return tool.InputError(err)
	}
	models := []*spec.Model{m}
	if len(args) == 2 {
		if m.Kind != spec.SpecKind {
			return tool.InputError(fmt.Errorf("%s: the first file of stg check SPEC PURPOSE must be a spec, not a %s", args[0], m.Kind))
		}
		p, err := loadModel(args[1], m)
		if err != nil {
			return tool.InputError(err)
		}
		if p.Kind != spec.PurposeKind {
			return tool.InputError(fmt.Errorf("%s: the second file of stg check SPEC PURPOSE must be a purpose, not a %s", args[1], p.Kind))
		}
		models = append(models, p)
	}

	ctx, err := solver.NewContext()
	if err != nil {
		return tool.InputError(fmt.Errorf("stg check: cannot start the solver: %v", err))
	}
	defer ctx.Close()
	ctx.SetTimeout(c.Duration("solver-timeout"))
	var errs spec.ErrorList
	undecided := make([]int, len(models))
	for i, m := range models {
		n, err := validate(ctx, m, c.App.ErrWriter)
		var el spec.ErrorList
		switch {
		case errors.As(err, &el):
			errs = append(errs, el...)
		case err != nil:
			return tool.InputError(err)
		}
		undecided[i] = n
	}
	if err := errs.Err(); err != nil {
		return tool.InputError(err)
	}
	for i, m := range models {
		writeSummary(c.App.Writer, m, undecided[i])
	}
	return nil
}

// runCheckTables checks the tables file that ends args, after its spec
// when args has two files.
func runCheckTables(c *cli.Context, args []string) error {
	var sp *spec.Model
	if len(args) == 2 {
		m, err := loadModel(args[0], nil)
		if err != nil {
			return tool.InputError(err)
		}
		if m.Kind != spec.SpecKind {
			return tool.InputError(fmt.Errorf("%s: the first file of stg check SPEC TABLES must be a spec, not a %s", args[0], m.Kind))
		}
		sp = m
	}
	summary, err := checkTables(args[len(args)-1], sp) // tables.go
	if err != nil {
		return tool.InputError(err)
	}
	fmt.Fprintln(c.App.Writer, summary)
	return nil
}

// loadModel reads the model file path; a purpose needs its spec.
// The error is an os error or a spec.ErrorList.
func loadModel(path string, sp *spec.Model) (*spec.Model, error) {
	data, err := spec.ReadModelFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: cannot read: %v", path, pe.Err)
		}
		return nil, err
	}
	return parseModelOrSystem(path, data, sp) // compose.go: a system is composed
}

// writeSummary prints one line about m: its locations, transitions,
// data and alphabet. A spec or testcase has passed the determinism
// check when this is called, but for the undecided findings (pairs of
// transitions or receive gaps the solver could not decide).
func writeSummary(w io.Writer, m *spec.Model, undecided int) {
	var parts []string
	var locs []string
	for _, l := range m.Locations {
		var notes []string
		if l == m.Initial.Location {
			notes = append(notes, "initial")
		}
		if m.IsAccept(l) {
			notes = append(notes, "accept")
		}
		if v := m.Verdict(l); v != "" {
			notes = append(notes, v)
		}
		locs = append(locs, strings.Join(append([]string{l}, notes...), " "))
	}
	parts = append(parts, count(len(m.Locations), "location")+list(locs))
	parts = append(parts, count(len(m.Transitions), "transition"))
	if len(m.Enums) > 0 {
		var ts []string
		for _, e := range m.Enums {
			ts = append(ts, e.Name+" = {"+strings.Join(e.Values, ", ")+"}")
		}
		parts = append(parts, count(len(m.Enums), "type")+list(ts))
	}
	if len(m.Funcs) > 0 {
		var fs []string
		for _, f := range m.Funcs {
			fs = append(fs, f.String()) // array parameters as [N]T
		}
		parts = append(parts, count(len(m.Funcs), "function")+list(fs))
	}
	var vs []string
	for _, v := range m.Variables {
		d := v.Name + ": " + v.Type.String()
		if v.Range != nil {
			d += fmt.Sprintf(" in [%s, %s]", v.Range.Lo, v.Range.Hi)
		}
		vs = append(vs, d)
	}
	parts = append(parts, count(len(m.Variables), "variable")+list(vs))
	if m.Kind != spec.PurposeKind {
		var as []string
		for _, a := range m.Actions {
			as = append(as, signature(a))
		}
		parts = append(parts, count(len(m.Actions), "action")+list(as))
		if undecided == 0 {
			parts = append(parts, "deterministic")
		} else {
			parts = append(parts, fmt.Sprintf("deterministic as far as the solver can tell (%s undecided, see the warnings)", count(undecided, "check")))
		}
	}
	fmt.Fprintf(w, "%s %s: %s\n", m.Kind, m.Name, strings.Join(parts, ", "))
}

// signature prints a as in?(p: int): ? for what the model's owner
// receives (a SUT's input, a tester's receive), ! for what it emits.
func signature(a *spec.Action) string {
	s := a.Name
	switch a.Dir {
	case spec.Input, spec.Receive:
		s += "?"
	case spec.Output, spec.Send:
		s += "!"
	}
	if len(a.Params) > 0 {
		var ps []string
		for _, p := range a.Params {
			ps = append(ps, p.String()) // "n: int", "n: int in [0, 9]"
		}
		s += "(" + strings.Join(ps, ", ") + ")"
	}
	if a.Dir == spec.Internal {
		s += " internal"
	}
	return s
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func list(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return " (" + strings.Join(xs, ", ") + ")"
}
