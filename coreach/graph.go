package coreach

import (
	"github.com/stg-tool/stg/internal/graph"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/spec/expr"
)

// Result holds, per product location, an over-approximation of the
// states co-reachable from Accept (Coreach) and of the states reachable
// from the initial condition (Reach), as predicates on the variables.
// A location missing from a map is unconstrained (true).
type Result struct {
	Coreach map[string]expr.Expr
	Reach   map[string]expr.Expr
}

// CoreachOf returns the co-reachability predicate of loc.
func (r *Result) CoreachOf(loc string) expr.Expr { return lookup(r.Coreach, loc) }

// ReachOf returns the reachability predicate of loc.
func (r *Result) ReachOf(loc string) expr.Expr { return lookup(r.Reach, loc) }

func lookup(m map[string]expr.Expr, loc string) expr.Expr {
	if e, ok := m[loc]; ok {
		return e
	}
	return expr.True()
}

// Graph is the analysis of the domain "none": it ignores data, so a
// location co-reaches Accept (true) when some path of the product's
// graph leads from it to an Accept location, and is false otherwise;
// likewise for reachability from the initial location. It is the
// coarsest sound analysis (the graph over-approximates the runs).
func Graph(p *product.Product) *Result {
	r := &Result{Coreach: map[string]expr.Expr{}, Reach: map[string]expr.Expr{}}
	back := map[string][]string{}
	fwd := map[string][]string{}
	for _, t := range p.Transitions {
		if t.To == p.Fail {
			continue
		}
		back[t.To] = append(back[t.To], t.From)
		fwd[t.From] = append(fwd[t.From], t.To)
	}
	var seeds []string
	for _, l := range p.Locations {
		if p.Accept[l] {
			seeds = append(seeds, l)
		}
	}
	co := graph.Reach(seeds, func(l string) []string { return back[l] })
	re := graph.Reach([]string{p.Initial.Location}, func(l string) []string { return fwd[l] })
	for _, l := range p.Locations {
		r.Coreach[l] = expr.BoolConst(co[l])
		r.Reach[l] = expr.BoolConst(re[l])
	}
	return r
}
