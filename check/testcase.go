package check

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// ReceiveCompleteness reports, for a test case, each non-verdict
// location and receive action (delta included) for which some
// valuation enables no transition: docs/reference.md#model-files requires a test case to
// say what every SUT output and quiescence leads to. Values out of a
// parameter's range are not outputs (they are ill-typed: Fail by
// typing) and are not counted. Each gap is
// reported at the location's first transition (or the initial
// location's declaration) with a witness valuation; a gap the solver
// cannot decide is an Undecided finding. Other kinds of model have no
// such obligation and get nothing.
func ReceiveCompleteness(ctx *solver.Context, m *spec.Model) (Findings, error) {
	var f Findings
	if m.Kind != spec.TestcaseKind {
		return f, nil
	}
	for _, l := range m.Locations {
		if m.Verdict(l) != "" {
			continue
		}
		out := m.Outgoing(l)
		pos := withFile(locationPos(m, l), m)
		for _, a := range m.Actions {
			if a.Dir != spec.Receive {
				continue
			}
			var guards []expr.Expr
			for _, t := range out {
				if t.Action == a.Name {
					guards = append(guards, t.Guard)
				}
			}
			// Only values in the parameters' ranges count: an output
			// out of range is ill-typed, Fail before any guard is read
			// (adapter.DecodeArgs), so it needs no transition.
			gap := expr.AndOf(a.ParamRanges(nil), expr.NotOf(expr.OrOf(guards...)))
			val, ok, err := ctx.Model(gap)
			if errors.Is(err, solver.ErrUnknown) {
				f.Undecided = append(f.Undecided, &expr.Error{Pos: pos, Msg: fmt.Sprintf(
					"the solver cannot decide whether test case location %s is complete for receive %s (%v)", l, a.Name, err)})
				continue
			}
			if err != nil {
				return f, err
			}
			if !ok {
				continue
			}
			what := "no transition"
			if len(guards) > 0 {
				what = "no guard holds"
			}
			f.Errors = append(f.Errors, &expr.Error{Pos: pos, Msg: fmt.Sprintf(
				"test case location %s is not complete for receive %s: %s, e.g. with %s (add a transition, to Fail for an unspecified output)",
				l, a.Name, what, witness(m, a, val))})
		}
	}
	return f, nil
}

// locationPos returns where the location l shows in m: its first
// outgoing transition, else its first incoming one, else the initial
// declaration. (The loader keeps no position for location lists.)
func locationPos(m *spec.Model, l string) expr.Pos {
	if out := m.Outgoing(l); len(out) > 0 {
		return out[0].Pos
	}
	for _, t := range m.Transitions {
		if t.To == l {
			return t.Pos
		}
	}
	return m.Initial.Pos
}

// verdictNames are the names docs/reference.md#model-files gives the verdict locations
// of a test case, by verdict.
var verdictNames = [...]struct{ verdict, name string }{
	{"pass", "Pass"}, {"fail", "Fail"}, {"inconc", "Inconc"},
}

// VerdictNames reports, for a test case, verdict locations not named
// after their verdict (docs/reference.md#model-files: Pass, Fail and Inconc) and
// locations named Pass, Fail or Inconc that are not declared verdict
// locations of that kind: a runner or a reader would take them for
// what they are not. Other kinds of model get nothing.
func VerdictNames(m *spec.Model) []*expr.Error {
	if m.Kind != spec.TestcaseKind {
		return nil
	}
	var errs []*expr.Error
	for _, l := range m.Locations {
		v := m.Verdict(l)
		for _, vn := range verdictNames {
			switch {
			case v == vn.verdict && l != vn.name:
				errs = append(errs, &expr.Error{Pos: withFile(locationPos(m, l), m), Msg: fmt.Sprintf(
					"%s verdict location %s must be named %s (docs/reference.md#model-files)", v, l, vn.name)})
			case v != vn.verdict && l == vn.name:
				errs = append(errs, &expr.Error{Pos: withFile(locationPos(m, l), m), Msg: fmt.Sprintf(
					"location %s is not listed in the %s verdicts (verdicts: {%s: [%s]})", l, vn.verdict, vn.verdict, l)})
			}
		}
	}
	return errs
}
