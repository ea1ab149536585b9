package tool

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// CheckOptions are the options of stg check SPEC [PURPOSE] | TESTCASE:
// the model files and the bound of each solver query (an undecided
// query is a warning; stg's default is DefaultSolverTimeout).
type CheckOptions struct {
	Files         []string
	SolverTimeout time.Duration
}

// Check is stg check SPEC [PURPOSE] | TESTCASE: it loads the models,
// checks them (names, types, determinism, a test case's completeness)
// and prints a summary of each on stdout; problems and warnings go to
// stderr as FILE:LINE:COL: message. The tables form of stg check is the
// command line's.
func Check(opts CheckOptions, stdout, stderr io.Writer) error {
	args := opts.Files
	if len(args) >= 1 && len(args) <= 2 && isTables(args[len(args)-1]) {
		return checkTablesFile(args, stdout)
	}
	if len(args) < 1 || len(args) > 2 {
		return UsageError("stg check", "stg check takes a spec and optionally a purpose, or a testcase")
	}
	if len(args) == 2 {
		if err := SwappedSpecPurpose("check", args[0], args[1]); err != nil {
			return InputError(err)
		}
	}
	models, err := checkModels(args)
	if err != nil {
		return InputError(err)
	}
	ctx, err := newSolver("stg check", opts.SolverTimeout)
	if err != nil {
		return err
	}
	defer ctx.Close()
	var errs expr.ErrorList
	undecided := make([]int, len(models))
	for i, m := range models {
		n, err := validate(ctx, m, stderr)
		var el expr.ErrorList
		switch {
		case errors.As(err, &el):
			errs = append(errs, el...)
		case err != nil:
			return InputError(err)
		}
		undecided[i] = n
	}
	if err := errs.Err(); err != nil {
		return InputError(err)
	}
	for i, m := range models {
		writeSummary(stdout, m, undecided[i])
	}
	return nil
}

// checkModels loads the models of stg check: a spec (or system) and a
// purpose, or one model.
func checkModels(args []string) ([]*spec.Model, error) {
	m, err := LoadModel(args[0], nil)
	if err != nil {
		return nil, err
	}
	if len(args) == 1 {
		return []*spec.Model{m}, nil
	}
	if m.Kind != spec.SpecKind {
		return nil, fmt.Errorf("%s: the first file of stg check SPEC PURPOSE must be a spec, not a %s", args[0], m.Kind)
	}
	p, err := LoadModel(args[1], m)
	if err != nil {
		return nil, err
	}
	if p.Kind != spec.PurposeKind {
		return nil, fmt.Errorf("%s: the second file of stg check SPEC PURPOSE must be a purpose, not a %s", args[1], p.Kind)
	}
	return []*spec.Model{m, p}, nil
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

// checkTablesFile checks the tables file that ends args, after its spec
// when args has two files, and prints its summary.
func checkTablesFile(args []string, stdout io.Writer) error {
	var sp *spec.Model
	if len(args) == 2 {
		m, err := LoadModel(args[0], nil)
		if err != nil {
			return InputError(err)
		}
		if m.Kind != spec.SpecKind {
			return InputError(fmt.Errorf("%s: the first file of stg check SPEC TABLES must be a spec, not a %s", args[0], m.Kind))
		}
		sp = m
	}
	summary, err := CheckTables(args[len(args)-1], sp)
	if err != nil {
		return InputError(err)
	}
	fmt.Fprintln(stdout, summary)
	return nil
}

// isTables reports whether the file path is a tables file.
func isTables(path string) bool {
	k, ok := kindOf(path)
	return ok && k == spec.TablesKind
}
