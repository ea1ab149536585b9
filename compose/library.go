package compose

import (
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// library holds what the components of a system share once renamed:
// the qualified variables, the channels with the parameters of their
// first declaration, and the enumerated types of their first
// declaration.
type library struct {
	ctx      *solver.Context // nil: no pruning (BuildWith)
	err      error           // the first solver error of a pruning query
	sys      *spec.System
	enums    []*expr.Enum
	enumOf   map[string]*expr.Enum
	vars     map[string]expr.Type // qualified name -> type
	channels []*spec.Action       // every action of every component, first declarations
	chanOf   map[string]*spec.Action
}

func newLibrary(sys *spec.System) *library {
	lib := &library{sys: sys, enumOf: map[string]*expr.Enum{}, vars: map[string]expr.Type{}, chanOf: map[string]*spec.Action{}}
	for _, c := range sys.Components {
		for _, e := range c.Model.Enums {
			if lib.enumOf[e.Name] == nil {
				lib.enumOf[e.Name] = e
				lib.enums = append(lib.enums, e)
			}
		}
	}
	for _, c := range sys.Components {
		for _, v := range c.Model.Variables {
			lib.vars[qualify(c.Name, v.Name)] = lib.typ(v.Type)
		}
		for _, a := range c.Model.Actions {
			if lib.chanOf[a.Name] != nil {
				continue
			}
			b := &spec.Action{Name: a.Name, Dir: a.Dir, Pos: a.Pos}
			for _, p := range a.Params {
				b.Params = append(b.Params, &spec.Param{Name: p.Name, Type: lib.typ(p.Type), Pos: p.Pos})
			}
			lib.chanOf[a.Name] = b
			lib.channels = append(lib.channels, b)
		}
	}
	return lib
}

func qualify(comp, name string) string { return comp + "." + name }

// typ maps a component's type to the library's (enumerated types by
// name).
func (lib *library) typ(t expr.Type) expr.Type {
	if t.Kind == expr.EnumKind {
		return expr.EnumType(lib.enumOf[t.Enum.Name])
	}
	return t
}

// scope is the scope of the composed expressions on channel a (nil for
// the variables only).
func (lib *library) scope(a *spec.Action) *expr.Scope {
	s := &expr.Scope{Vars: lib.vars, Params: map[string]expr.Type{}, Consts: map[string]*expr.Enum{}, Funcs: map[string]*expr.Func{}}
	for _, e := range lib.enums {
		for _, v := range e.Values {
			s.Consts[v] = e
		}
	}
	if a != nil {
		for _, p := range a.Params {
			s.Params[p.Name] = p.Type
		}
	}
	return s
}

// rename returns e, an expression of component c on its action a (nil
// for none), over the library: variables qualified, parameters named as
// the channel's first declaration, enumerated types the library's. It
// renames the identifiers, then reads the text back in the library's
// scope, which also moves every enum constant to the library's type.
func (lib *library) rename(c *spec.Component, a *spec.Action, e expr.Expr) (expr.Expr, error) {
	if e == nil {
		return nil, nil
	}
	var ch *spec.Action
	params := map[string]string{}
	if a != nil {
		ch = lib.chanOf[a.Name]
		for i, p := range a.Params {
			params[p.Name] = ch.Params[i].Name
		}
	}
	r := expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
		n := *id
		if id.Kind == expr.VarIdent {
			n.Name = qualify(c.Name, id.Name)
		} else if p, ok := params[id.Name]; ok {
			n.Name = p
		}
		return &n
	})
	out, err := expr.Parse(expr.Format(r), e.Pos(), lib.scope(ch))
	if err != nil {
		return nil, fmt.Errorf("component %s: cannot rename %s: %v", c.Name, expr.Format(e), err)
	}
	return out, nil
}

// basic returns the system of one component (Def 7, renaming): an
// output or internal transition t is named (c.t, ∅), an input (ε, {c.t}).
func (lib *library) basic(st *spec.Structure) (*System, error) {
	c := lib.sys.Component(st.Component)
	m := c.Model
	g := &System{Structure: st, Leaves: []string{c.Name}, lib: lib}
	for _, v := range m.Variables {
		g.Variables = append(g.Variables, &spec.Variable{Name: qualify(c.Name, v.Name), Type: lib.typ(v.Type), Range: v.Range, Pos: v.Pos})
	}
	g.Initial = State{m.Initial.Location}
	var err error
	if g.Condition, err = lib.rename(c, nil, m.Initial.Condition); err != nil {
		return nil, err
	}
	if g.Invariant, err = lib.rename(c, nil, m.Invariant); err != nil {
		return nil, err
	}
	for _, t := range m.Transitions {
		u, err := lib.transition(c, t)
		if err != nil {
			return nil, err
		}
		g.Transitions = append(g.Transitions, u)
	}
	return g.reachable(), nil
}

func (lib *library) transition(c *spec.Component, t *spec.Transition) (*Transition, error) {
	a := c.Model.Action(t.Action)
	u := &Transition{From: State{t.From}, To: State{t.To}, Action: t.Action, Dir: a.Dir, Params: lib.chanOf[a.Name].Params, Pos: t.Pos}
	if a.Dir == spec.Input {
		u.Name = Name{In: []string{qualify(c.Name, t.Name)}}
	} else {
		u.Name = Name{Out: qualify(c.Name, t.Name)}
	}
	var err error
	if u.Guard, err = lib.rename(c, a, t.Guard); err != nil {
		return nil, err
	}
	for _, as := range t.Assign {
		v, err := lib.rename(c, a, as.Value)
		if err != nil {
			return nil, err
		}
		u.Assign = append(u.Assign, spec.Assignment{Var: qualify(c.Name, as.Var), Value: v, Pos: as.Pos})
	}
	return u, nil
}
