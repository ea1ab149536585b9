package symex

import (
	"github.com/stg-tool/stg/spec/expr"
)

// Exact evaluates a predicate without identifiers: its truth, and
// whether it could be evaluated (false for a predicate over symbols, or
// one whose evaluation fails, such as a division by zero).
func Exact(g expr.Expr) (Truth, bool) { return exact(g) }
