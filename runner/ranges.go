package runner

import "github.com/stg-tool/stg/spec"

// Parameter ranges (spec/ranges.go). A range on a parameter is part of
// its type: the spec specifies its action for values in range only. The
// tester therefore sends only values in range: the Runner plays the test
// case with the ranges of each send's parameters conjoined with its
// guard (inRanges, once, in New), so that every way of choosing values
// (exact guesses, the solver, planning, replay and shrinking) honours
// them. An output out of range is ill-typed (adapter.DecodeArgs,
// spec.Param.Admits): Fail.

// inRanges returns tc with the guard of every send conjoined with the
// ranges of its action's parameters (copies of tc and of those
// transitions), or tc itself when no send parameter has a range.
func inRanges(tc *spec.Model) *spec.Model {
	var c *spec.Model
	for i, t := range tc.Transitions {
		a := tc.Action(t.Action)
		if a == nil || a.Dir != spec.Send {
			continue
		}
		r := a.ParamRanges(nil)
		if spec.IsTrue(r) {
			continue
		}
		if c == nil {
			cp := *tc
			cp.Transitions = append([]*spec.Transition(nil), tc.Transitions...)
			c = &cp
		}
		u := *t
		u.Guard = spec.AndOf(t.Guard, r)
		c.Transitions[i] = &u
	}
	if c == nil {
		return tc
	}
	return c
}

// ArgRanges returns the ranges of the parameters of a over args (args[i]
// stands for a.Params[i]; symbolic execution's fresh symbols of an input):
// what on-line testing conjoins with the goal it solves a stimulus from.
func ArgRanges(a *spec.Action, args []*spec.Ident) spec.Expr {
	if a == nil {
		return spec.True()
	}
	return a.ParamRanges(args)
}
