package check

import (
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// ReceiveCompleteness reports, for a test case, each non-verdict
// location and receive action (delta included) for which some
// valuation enables no transition: FORMAT.md §1 requires a test case to
// say what every SUT output and quiescence leads to. Each gap is
// reported at the location's first transition (or the initial
// location's declaration) with a witness valuation. Other kinds of
// model have no such obligation and get nothing.
func ReceiveCompleteness(ctx *solver.Context, m *spec.Model) ([]*spec.Error, error) {
	if m.Kind != spec.TestcaseKind {
		return nil, nil
	}
	var errs []*spec.Error
	for _, l := range m.Locations {
		if m.Verdict(l) != "" {
			continue
		}
		out := m.Outgoing(l)
		pos := m.Initial.Pos
		if len(out) > 0 {
			pos = out[0].Pos
		}
		for _, a := range m.Actions {
			if a.Dir != spec.Receive {
				continue
			}
			var guards []spec.Expr
			for _, t := range out {
				if t.Action == a.Name {
					guards = append(guards, t.Guard)
				}
			}
			gap := spec.NotOf(spec.OrOf(guards...))
			val, ok, err := ctx.Model(gap)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			what := "no transition"
			if len(guards) > 0 {
				what = "no guard holds"
			}
			errs = append(errs, &spec.Error{Pos: withFile(pos, m), Msg: fmt.Sprintf(
				"test case location %s is not complete for receive %s: %s, e.g. with %s (add a transition, to Fail for an unspecified output)",
				l, a.Name, what, witness(m, a, val))})
		}
	}
	return errs, nil
}
