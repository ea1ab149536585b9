package predabs

import (
	"fmt"
	"math/big"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// LocVar is the name of the implicit enumerated variable that stands for
// the location of a spec with several locations (SEEDS §4(c)). It is not
// an identifier of the expression language, so it never clashes with a
// variable of the spec.
const LocVar = "@loc"

// Var is a state variable x of the behavioural model with its domain
// D(x): its type, narrowed by its range when it has one.
type Var struct {
	Name  string
	Type  expr.Type
	Range *expr.Range
}

// Ref returns the expression x.
func (v *Var) Ref() expr.Expr { return expr.VarRef(v.Name, v.Type) }

// Domain returns the predicate x ∈ D(x) beyond the type (true for enums,
// bools and unbounded numbers).
func (v *Var) Domain() expr.Expr { return domainOf(v.Ref(), v.Range) }

func domainOf(x expr.Expr, r *expr.Range) expr.Expr {
	if r == nil {
		return expr.True()
	}
	return expr.AndOf(expr.Compare(expr.Le, expr.BigIntConst(r.Lo), x), expr.Compare(expr.Le, x, expr.BigIntConst(r.Hi)))
}

// Values returns the elements of a finite domain (an enum, bool, or a
// range of at most limit integers) as expressions, or nil.
func (v *Var) Values(limit int64) []expr.Expr {
	switch {
	case v.Type.Kind == expr.EnumKind:
		var out []expr.Expr
		for i := range v.Type.Enum.Values {
			out = append(out, &expr.EnumLit{Enum: v.Type.Enum, Index: i})
		}
		return out
	case v.Type.Kind == expr.Bool:
		return []expr.Expr{expr.False(), expr.True()}
	case v.Type.Kind == expr.Int && v.Range != nil:
		n := new(big.Int).Sub(v.Range.Hi, v.Range.Lo)
		if !n.IsInt64() || n.Int64() >= limit {
			return nil
		}
		var out []expr.Expr
		for i := int64(0); i <= n.Int64(); i++ {
			out = append(out, expr.BigIntConst(new(big.Int).Add(v.Range.Lo, big.NewInt(i))))
		}
		return out
	}
	return nil
}

// EGA is an elementary guarded action G ∧ X' = f(X) of the behavioural
// model (Def. 4): one spec transition, its parameters ∃-quantified. With
// the implicit location variable, G reads @loc == from and f assigns
// @loc := to.
type EGA struct {
	Action     string
	Transition *spec.Transition // the spec transition it is
	Guard      expr.Expr
	Assign     map[string]expr.Expr // every variable of X, unassigned ones to themselves
}

// Post returns e on the state after the EGA: e[X := f(X, P)].
func (g *EGA) Post(e expr.Expr) expr.Expr { return expr.Substitute(e, g.Assign, nil) }

// Modifies reports whether the EGA assigns x an expression other than x
// itself (the x' = e, e ≠ x of X^A_op, read syntactically).
func (g *EGA) Modifies(x string) bool {
	e := g.Assign[x]
	id, ok := e.(*expr.Ident)
	return !ok || id.Kind != expr.VarIdent || id.Name != x
}

// Behaviour is the behavioural model <X, I, init, O, OP> read from a
// spec (Def. 4): its state variables, invariant (with the domains),
// initial condition and EGAs.
type Behaviour struct {
	Spec      *spec.Model
	Vars      []*Var
	Invariant expr.Expr // I: the spec's invariant and the variables' domains
	Init      expr.Expr // init
	EGAs      []*EGA
	loc       *expr.Enum // the type of LocVar, or nil
}

// NewBehaviour reads the behavioural model of a spec. A spec with more
// than one location gets the implicit variable LocVar.
func NewBehaviour(s *spec.Model) (*Behaviour, error) {
	if s == nil || s.Kind != spec.SpecKind {
		return nil, fmt.Errorf("predabs: the behavioural model must be a spec")
	}
	s = s.WithParamRanges() // spec/ranges.go: a parameter's values lie in its range
	b := &Behaviour{Spec: s}
	for _, v := range s.Variables {
		b.Vars = append(b.Vars, &Var{Name: v.Name, Type: v.Type, Range: v.Range})
	}
	init := s.Initial.Condition
	if len(s.Locations) > 1 {
		b.loc = &expr.Enum{Name: LocVar, Values: append([]string(nil), s.Locations...)}
		b.Vars = append(b.Vars, &Var{Name: LocVar, Type: expr.EnumType(b.loc)})
		init = expr.AndOf(init, b.atLoc(s.Initial.Location))
	}
	b.Init = init
	doms := []expr.Expr{}
	if s.Invariant != nil {
		doms = append(doms, s.Invariant)
	}
	for _, v := range b.Vars {
		doms = append(doms, v.Domain())
	}
	b.Invariant = expr.AndOf(doms...)
	for _, t := range s.Transitions {
		b.EGAs = append(b.EGAs, b.ega(t))
	}
	return b, nil
}

func (b *Behaviour) atLoc(l string) expr.Expr {
	return expr.Compare(expr.Eq, expr.VarRef(LocVar, expr.EnumType(b.loc)), &expr.EnumLit{Enum: b.loc, Index: b.loc.Index(l)})
}

func (b *Behaviour) ega(t *spec.Transition) *EGA {
	g := &EGA{Action: t.Action, Transition: t, Guard: t.Guard, Assign: map[string]expr.Expr{}}
	for _, v := range b.Spec.Variables {
		g.Assign[v.Name] = t.AssignedValue(v)
	}
	if b.loc != nil {
		g.Guard = expr.AndOf(b.atLoc(t.From), t.Guard)
		g.Assign[LocVar] = expr.VarRef(LocVar, expr.EnumType(b.loc)) // a self-loop keeps it
		if t.To != t.From {
			g.Assign[LocVar] = &expr.EnumLit{Enum: b.loc, Index: b.loc.Index(t.To)}
		}
	}
	return g
}

// Var returns the state variable called name, or nil.
func (b *Behaviour) Var(name string) *Var {
	for _, v := range b.Vars {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Step returns the predicate on X and the parameters of g that says g
// leads from a state satisfying pre to one satisfying post, both states
// in the domains and, when inv is set, satisfying I.
func (b *Behaviour) Step(g *EGA, pre, post expr.Expr, inv bool) expr.Expr {
	dom := b.domains()
	if inv {
		dom = b.Invariant
	}
	return expr.AndOf(dom, pre, g.Guard, g.Post(dom), g.Post(post))
}

func (b *Behaviour) domains() expr.Expr {
	var ds []expr.Expr
	for _, v := range b.Vars {
		ds = append(ds, v.Domain())
	}
	return expr.AndOf(ds...)
}
