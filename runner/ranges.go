package runner

import "github.com/stg-tool/stg/spec"

// Parameter ranges (spec/ranges.go). A range on a parameter is part of
// its type: the spec specifies its action for values in range only. The
// Runner plays the test case with the ranges of each action's parameters
// conjoined with its guards (inRanges, once, in New): every way of
// choosing values to send (exact guesses, the solver, planning, replay
// and shrinking) honours them, and an output out of range matches no
// transition. It is ill-typed before that (adapter.DecodeArgs,
// spec.Param.Admits): Fail. A test case written by stg generate has the
// ranges in its guards already; they are not added twice.

// inRanges returns tc with the ranges of the parameters in its guards
// (spec.Model.WithParamRanges).
func inRanges(tc *spec.Model) *spec.Model { return tc.WithParamRanges() }
