package instantiate

import (
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// trKey names a product transition by its ends (purpose location and
// abstract state) and action, the same in SP and in SP'.
type trKey struct {
	fromQ, toQ string
	fromA, toA int
	action     string
}

func keyOf(t *predabs.ProductTransition) trKey {
	return trKey{t.From.Purpose, t.To.Purpose, t.From.Abstract.ID, t.To.Abstract.ID, t.Action}
}

// Traversed returns the transitions of sp that the concrete run of inst
// follows: the run is read on the product spPrime (SP', whose reflexive
// transitions the inserted steps take), tracking every product state
// consistent with it (the purpose may be non-deterministic); a step
// traverses a transition of SP' when it leaves one of these states by
// the transition's action and one of its EGAs, from a state in its
// source's abstract state to one in its target's. The transitions of sp
// with the same ends and action are returned.
func Traversed(sp, spPrime *predabs.Product, inst *Instance) ([]*predabs.ProductTransition, error) {
	bySP := map[trKey]*predabs.ProductTransition{}
	for _, t := range sp.Transitions {
		bySP[keyOf(t)] = t
	}
	in := func(s *predabs.ProductState, x map[string]expr.Value) (bool, error) {
		return expr.EvalBool(s.Pred(), expr.Valuation{Vars: x})
	}
	cur := map[*predabs.ProductState]bool{}
	for _, q := range spPrime.Initial {
		ok, err := in(q, inst.Init)
		if err != nil {
			return nil, err
		}
		cur[q] = ok
	}
	seen := map[*predabs.ProductTransition]bool{}
	var out []*predabs.ProductTransition
	before := inst.Init
	for _, st := range inst.Steps {
		next := map[*predabs.ProductState]bool{}
		for _, t := range spPrime.Transitions {
			if !cur[t.From] || t.Action != st.Transition.Action || !hasEGA(t, st.Transition) {
				continue
			}
			okFrom, err := in(t.From, before)
			if err != nil {
				return nil, err
			}
			okTo, err := in(t.To, st.After)
			if err != nil {
				return nil, err
			}
			if !okFrom || !okTo {
				continue
			}
			next[t.To] = true
			if u := bySP[keyOf(t)]; u != nil && !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
		cur, before = next, st.After
	}
	return out, nil
}

func hasEGA(t *predabs.ProductTransition, tr *spec.Transition) bool {
	for _, s := range t.Steps {
		if s.EGA.Transition == tr {
			return true
		}
	}
	return false
}
