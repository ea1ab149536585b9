package tool

import (
	"fmt"
	"io"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// DefaultSolverTimeout bounds each solver query of the commands and of
// the validation of stg run (--solver-timeout): the pipeline's default.
const DefaultSolverTimeout = pipeline.DefaultQueryTimeout

// validate checks a loaded model beyond what the loader checks (names,
// types, the rules of its kind): a spec or testcase must be
// deterministic, a testcase complete for receives with its verdict
// locations named Pass, Fail and Inconc. Problems come back as a
// expr.ErrorList (FILE:LINE:COL: message); what the solver could not
// decide is written to warn as FILE:LINE:COL: warning: message, counted
// in undecided, and is not an error. The error is a expr.ErrorList, or
// a failure of the solver itself.
func validate(ctx *solver.Context, m *spec.Model, warn io.Writer) (undecided int, err error) {
	if err := assumeTables(ctx, m); err != nil { // decided modulo the rows the model carries, as generated
		return 0, fmt.Errorf("%s: %v", m.File, err)
	}
	f, err := check.All(ctx, m)
	if err != nil {
		return 0, fmt.Errorf("%s: solver: %v", m.File, err)
	}
	warnings := expr.ErrorList(f.Undecided)
	warnings.Sort()
	for _, u := range warnings {
		fmt.Fprintf(warn, "%s: warning: %s\n", u.Pos, u.Msg)
	}
	return len(warnings), expr.ErrorList(f.Errors).Err()
}

// validateTestcase is validate with a solver of its own, for stg run
// and stg verdict, which play only test cases that stg check accepts.
func validateTestcase(m *spec.Model, warn io.Writer) error {
	ctx, err := solver.NewContext()
	if err != nil {
		return fmt.Errorf("cannot start the solver: %v", err)
	}
	defer ctx.Close()
	ctx.SetTimeout(DefaultSolverTimeout)
	_, err = validate(ctx, m, warn)
	return err
}

// assumeTables makes the rows of the tables of m's functions facts of
// ctx: they hold of the functions as stg run evaluates them.
func assumeTables(ctx *solver.Context, m *spec.Model) error {
	reg, err := extfunc.New(m.Funcs, extfunc.Options{})
	if err != nil {
		return err
	}
	defer reg.Close()
	return ctx.SetFacts(reg.TableFacts())
}
