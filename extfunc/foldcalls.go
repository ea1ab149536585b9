package extfunc

import (
	"github.com/stg-tool/stg/spec/expr"
)

// FoldCalls returns e with the calls whose arguments are constants
// evaluated by funcs, conjoined with the tables' facts about the other
// calls (F(row) == result): what the solver is told of e's calls, by the
// STG route's planning and by on-line testing alike. With funcs nil, or
// no call in e, it returns e.
func FoldCalls(funcs *Registry, e expr.Expr) (expr.Expr, error) {
	if funcs == nil || !expr.Contains(e, isCall) {
		return e, nil
	}
	e, err := Fold(e, funcs)
	if err != nil || !expr.Contains(e, isCall) {
		return e, err
	}
	return expr.AndOf(e, funcs.Facts(e)), nil
}

func isCall(e expr.Expr) bool {
	_, ok := e.(*expr.Call)
	return ok
}
