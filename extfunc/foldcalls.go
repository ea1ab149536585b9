package extfunc

import "github.com/stg-tool/stg/spec"

// FoldCalls returns e with the calls whose arguments are constants
// evaluated by funcs, conjoined with the tables' facts about the other
// calls (F(row) == result): what the solver is told of e's calls, by the
// STG route's planning and by on-line testing alike. With funcs nil, or
// no call in e, it returns e.
func FoldCalls(funcs *Registry, e spec.Expr) (spec.Expr, error) {
	if funcs == nil || !spec.Contains(e, isCall) {
		return e, nil
	}
	e, err := Fold(e, funcs)
	if err != nil || !spec.Contains(e, isCall) {
		return e, err
	}
	return spec.AndOf(e, funcs.Facts(e)), nil
}

func isCall(e spec.Expr) bool {
	_, ok := e.(*spec.Call)
	return ok
}
