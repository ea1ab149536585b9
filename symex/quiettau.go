package symex

import (
	"slices"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// TauQuiescence returns the condition of the quiescence step that Def
// 14 of the component-systems paper (quiescence enrichment of a
// τ-reduced symbolic execution) adds from the τ-reduced node r, whose
// external constraint is ec (nil: true):
//
//	π(r) ∧ ∧i ¬∃Fi. (π(ti) ∧ ec)
//
// where ti are the targets of r's τ-reduced outputs (reached through
// internal chains) and Fi the symbols of π(ti) that r's state does not
// have (the fresh variables of the chain and of the output): without
// the ∃, a fresh output value would make every state quiescent. The
// δ step keeps r's state (it is not a sink), so the condition is all
// it adds. An output without fresh symbols needs no ∃.
//
// It over-approximates, which is the sound direction for quiescence (a
// tester then accepts δ where the spec might not, never the reverse): an
// internal chain that ends the tree without a visible step (r.TauEnds)
// or an output whose ∃ the solver cannot eliminate adds no conjunct.
// Only r's visible children count, so the tree must be expanded through
// r's internal chains up to their outputs.
func TauQuiescence(z *solver.Context, r *TauNode, ec expr.Expr) (expr.Expr, error) {
	if ec == nil {
		ec = expr.True()
	}
	own := symbolsOf(r.Node.State)
	cond := []expr.Expr{r.Node.State.PC}
	for _, c := range r.Children {
		n := c.Node
		if n.Action == nil || n.Action.Dir != spec.Output || n.Name == DeltaName {
			continue
		}
		out := expr.AndOf(n.State.PC, ec)
		var fresh []*expr.Ident
		seen := map[string]bool{}
		expr.Idents(out, func(id *expr.Ident) {
			if IsSymbol(id) && !own[id.Name] && !seen[id.Name] {
				seen[id.Name] = true
				fresh = append(fresh, id)
			}
		})
		slices.SortFunc(fresh, func(a, b *expr.Ident) int { return strings.Compare(a.Name, b.Name) })
		if len(fresh) > 0 {
			q, err := z.EliminateExists(fresh, out)
			if err != nil {
				continue // over-approximate: this output does not restrict δ
			}
			out = q
		}
		cond = append(cond, expr.NotOf(out))
	}
	return expr.AndOf(cond...), nil
}

// symbolsOf returns the names of the symbols of st's path condition and
// values.
func symbolsOf(st *State) map[string]bool {
	own := map[string]bool{}
	add := func(e expr.Expr) {
		expr.Idents(e, func(id *expr.Ident) {
			if IsSymbol(id) {
				own[id.Name] = true
			}
		})
	}
	add(st.PC)
	for _, v := range st.Vars {
		add(v)
	}
	return own
}
