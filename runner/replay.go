package runner

import (
	"fmt"
	"math/big"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// stimulus returns the send of st from the state the tester is in: with
// its recorded values when the test case allows them; when adapting (or
// asked for with Toward), with values solved afresh. nil when no send
// transition of st's action is enabled.
func (x *execution) stimulus(st play.Stimulus, adapt bool) (*choice, error) {
	vs, err := x.views()
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	x.cur = vs[0]
	x.curVals, x.ground = x.cur.Values()
	a := x.r.tc.Action(st.Action)
	if a == nil {
		return nil, nil
	}
	var ts []*spec.Transition
	for _, t := range x.r.sends[x.cur.Loc] {
		if t.Action == st.Action {
			ts = append(ts, t)
		}
	}
	if st.Toward == "" && len(st.Args) == len(a.Params) {
		for _, t := range ts {
			ok, err := x.allows(t, st.Args)
			if err != nil || ok {
				if !ok {
					return nil, err
				}
				return &choice{t: t, args: st.Args}, nil
			}
		}
	}
	if !adapt && st.Toward == "" {
		return nil, nil
	}
	for _, t := range ts {
		c, err := x.solveNear(t, a, st)
		if err != nil || c != nil {
			return c, err
		}
	}
	return nil, nil
}

// solveNear solves values for the parameters of t that its guard allows
// in the current state: the one named st.Toward as close to st.Target as
// allowed, the others equal to st's values where allowed.
func (x *execution) solveNear(t *spec.Transition, a *spec.Action, st play.Stimulus) (*choice, error) {
	params := map[string]expr.Expr{}
	ids := make([]*expr.Ident, len(a.Params))
	for i, p := range a.Params {
		ids[i] = &expr.Ident{Name: p.Name, Kind: expr.ParamIdent, T: p.Type}
		params[p.Name] = ids[i]
	}
	g, err := x.fold(expr.Substitute(t.Guard, x.constants(), params))
	if err != nil {
		return nil, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	s := x.solver() // the run's, in scopes popped on return
	defer s.PopTo(s.Scopes())
	if ok, err := assertSat(s, expr.AndOf(x.cur.PC, g)); err != nil || !ok {
		return nil, err
	}
	for _, id := range ids {
		if id.Name == st.Toward {
			if err := closest(s, id, st.Target); err != nil {
				return nil, err
			}
		}
	}
	for _, id := range ids {
		if v, ok := st.Args[id.Name]; ok && id.Name != st.Toward {
			s.Push()
			if ok, err := assertSat(s, expr.Compare(expr.Eq, id, v.Expr())); err != nil {
				return nil, err
			} else if !ok {
				s.Pop(1)
			}
		}
	}
	if res, err := s.Check(); err != nil || res != solver.Sat {
		return nil, err
	}
	vals, err := modelValues(s, ids)
	if err != nil {
		return nil, err
	}
	return x.checked(t, a, ids, vals, false)
}

// modelValues returns the values of ids in the model of s's last
// satisfiable check (those the model gives).
func modelValues(s *solver.Solver, ids []*expr.Ident) (map[string]expr.Value, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	vals := map[string]expr.Value{}
	for _, id := range ids {
		if v, ok := m.Lookup(id.Kind, id.Name); ok {
			vals[id.Name] = v
		}
	}
	return vals, nil
}

// assertSat asserts e in a new scope and keeps it when the assertions
// stay satisfiable; otherwise it pops the scope and reports false.
func assertSat(s *solver.Solver, e expr.Expr) (bool, error) {
	s.Push()
	if err := s.Assert(e); err != nil {
		s.Pop(1)
		return false, err
	}
	res, err := s.Check()
	if err != nil || res != solver.Sat {
		s.Pop(1)
		return false, err
	}
	return true, nil
}

// closest asserts (in scopes it leaves open) that id is as close to
// target as the assertions of s (satisfiable) allow: equal when
// possible; for a number, within the least distance found by doubling
// and bisection.
func closest(s *solver.Solver, id *expr.Ident, target expr.Value) error {
	if !target.IsValid() || target.T.Kind != id.T.Kind {
		return nil
	}
	if ok, err := assertSat(s, expr.Compare(expr.Eq, id, target.Expr())); err != nil || ok || !id.T.IsNumeric() {
		return err
	}
	within := func(k *big.Int) (bool, error) {
		kv := expr.Value{T: id.T, Int: k}
		if id.T.Kind == expr.Real {
			kv = expr.RatValue(new(big.Rat).SetInt(k))
		}
		lo := expr.Compare(expr.Ge, id, expr.Arith(expr.Sub, target.Expr(), kv.Expr()))
		hi := expr.Compare(expr.Le, id, expr.Arith(expr.Add, target.Expr(), kv.Expr()))
		return assertSat(s, expr.AndOf(lo, hi))
	}
	// Doubling: the first k = 2^i within which a value lies.
	lo, hi := big.NewInt(0), big.NewInt(1)
	for i := 0; ; i++ {
		ok, err := within(hi)
		if err != nil {
			return err
		}
		if ok {
			s.Pop(1) // bisect below
			break
		}
		if i > 256 {
			return nil // unbounded above the reach of doubling: any value
		}
		lo.Set(hi)
		hi.Lsh(hi, 1)
	}
	// Bisection: no value within lo, one within hi.
	one := big.NewInt(1)
	for new(big.Int).Sub(hi, lo).Cmp(one) > 0 {
		mid := new(big.Int).Add(lo, hi)
		mid.Rsh(mid, 1)
		ok, err := within(mid)
		if err != nil {
			return err
		}
		if ok {
			s.Pop(1)
			hi = mid
		} else {
			lo = mid
		}
	}
	_, err := within(hi)
	return err
}
