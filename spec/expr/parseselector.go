package expr

import (
	"go/ast"
	"strings"
)

// selector reads Int.b, the variable b of component Int in a composed
// system (variables named "Int.b").
func (c *checker) selector(n *ast.SelectorExpr) Expr {
	x, ok := n.X.(*ast.Ident)
	if !ok || c.scope == nil || !hasQualified(c.scope.Vars) {
		c.errorf(n.Pos(), "%s is not allowed in an expression", describe(n))
		return bad
	}
	name := x.Name + "." + n.Sel.Name
	if t, ok := c.scope.Vars[name]; ok {
		return &Ident{Name: name, Kind: VarIdent, T: t, At: c.pos(n.Pos())}
	}
	c.errorf(n.Pos(), "undeclared name %s", name)
	return bad
}

func hasQualified(vars map[string]Type) bool {
	for v := range vars {
		if strings.Contains(v, ".") && !strings.Contains(v, "[") {
			return true
		}
	}
	return false
}
