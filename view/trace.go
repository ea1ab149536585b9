package view

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// AddTrace replays a run's trace (a trace file of stg run --save-trace)
// on the model m of g, with the values of its variables, and stores its
// steps in g: for each event the edge it took and the location after it.
// The variables start with the values the initial condition fixes by
// equalities (x == c); a guard that reads a variable with no value
// matches no event. At a location where no edge takes the event, a spec's
// internal transitions whose guards hold are followed first, and
// quiescence, implicit outside test cases, is shown without an edge. The
// step that reaches Fail, or that no edge takes, is the failing
// observation; the replay stops there.
func AddTrace(g *Graph, m *spec.Model, events []specfile.TraceEvent) {
	r := &replay{g: g, m: m, loc: m.Initial.Location, vars: initialVars(m.Initial.Condition)}
	for _, ev := range events {
		if !r.step(ev) {
			break
		}
	}
	if n := len(g.Steps); n > 0 && g.Steps[n-1].Bad {
		g.TraceNote = fmt.Sprintf("failing observation at step %d: %s — %s", n, g.Steps[n-1].Event, g.Steps[n-1].Note)
	}
}

type replay struct {
	g    *Graph
	m    *spec.Model
	loc  string
	vars map[string]expr.Value
}

// step replays one event and reports whether the replay goes on.
func (r *replay) step(ev specfile.TraceEvent) bool {
	s := Step{Event: eventText(r.m, ev)}
	i, err := r.match(ev)
	for hops := 0; i < 0 && err == nil && hops < len(r.m.Locations) && r.internal(); hops++ {
		i, err = r.match(ev)
	}
	if i < 0 && ev.Action == spec.Delta && r.m.Kind != spec.TestcaseKind && err == nil {
		// A model other than a test case leaves quiescence implicit:
		// shown, not judged.
		s.Node, s.Vars, s.Note = r.nodeID(r.loc), varsText(r.vars), "quiescence"
		r.g.Steps = append(r.g.Steps, s)
		return true
	}
	if i < 0 {
		s.Bad, s.Node = true, r.nodeID(r.loc)
		s.Note = fmt.Sprintf("no transition from %s takes it", r.loc)
		if err != nil {
			s.Note += " (" + err.Error() + ")"
		}
		r.g.Steps = append(r.g.Steps, s)
		return false
	}
	t := r.m.Transitions[i]
	s.Edge, s.Node, s.Vars = r.g.Edges[i].ID, r.nodeID(t.To), varsText(r.vars)
	if v := r.m.Verdict(t.To); v != "" {
		s.Note, s.Bad = v, v == "fail"
		r.g.Edges[i].Keep = true
	}
	r.g.Steps = append(r.g.Steps, s)
	return s.Note == ""
}

// match finds the first transition from the current location that takes
// ev and takes it (updating the variables); -1 if none.
func (r *replay) match(ev specfile.TraceEvent) (int, error) {
	a := r.m.Action(ev.Action)
	params := map[string]expr.Value{}
	if a != nil {
		if (a.Dir == spec.Send || a.Dir == spec.Input) != ev.Send {
			return -1, fmt.Errorf("%s is not a %s here", ev.Action, map[bool]string{true: "send", false: "receive"}[ev.Send])
		}
		var err error
		if params, err = adapter.DecodeArgs(a, ev.Args); err != nil {
			return -1, err
		}
	}
	for i, t := range r.m.Transitions {
		if t.From == r.loc && t.Action == ev.Action && r.take(t, params) {
			return i, nil
		}
	}
	return -1, nil
}

// internal follows the first internal transition from the current
// location whose guard holds; it reports whether there was one.
func (r *replay) internal() bool {
	for _, t := range r.m.Transitions {
		if a := r.m.Action(t.Action); t.From == r.loc && a != nil && a.Dir == spec.Internal && r.take(t, nil) {
			return true
		}
	}
	return false
}

// take evaluates t's guard with the parameters and, if it holds, does
// its assignments and moves to its target.
func (r *replay) take(t *spec.Transition, params map[string]expr.Value) bool {
	env := expr.Valuation{Vars: r.vars, Params: params}
	if t.Guard != nil {
		if ok, err := expr.EvalBool(t.Guard, env); err != nil || !ok {
			return false
		}
	}
	next := make(map[string]expr.Value, len(r.vars))
	for k, v := range r.vars {
		next[k] = v
	}
	for _, as := range t.Assign {
		v, err := expr.Eval(as.Value, env)
		if err != nil {
			return false
		}
		next[as.Var] = v
	}
	r.vars, r.loc = next, t.To
	return true
}

func (r *replay) nodeID(l string) string {
	for _, n := range r.g.Nodes {
		if n.Name == l {
			return n.ID
		}
	}
	return ""
}

// initialVars returns the values the equalities x == c of an initial
// condition's conjunction fix.
func initialVars(c expr.Expr) map[string]expr.Value {
	vars := map[string]expr.Value{}
	var walk func(e expr.Expr)
	walk = func(e expr.Expr) {
		b, ok := e.(*expr.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case expr.And:
			walk(b.X)
			walk(b.Y)
		case expr.Eq:
			x, y := b.X, b.Y
			if _, ok := y.(*expr.Ident); ok {
				x, y = y, x
			}
			if id, ok := x.(*expr.Ident); ok && id.Kind == expr.VarIdent {
				if v, err := expr.Eval(y, expr.Valuation{}); err == nil {
					vars[id.Name] = v
				}
			}
		}
	}
	if c != nil {
		walk(c)
	}
	return vars
}

// eventText writes an event as the edges of m mark it: in a test case
// "!submit(n=3)" for a send, "?result(r=7, count=1)" for a receive (the
// tester's view); in a spec the other way round (the SUT's).
func eventText(m *spec.Model, ev specfile.TraceEvent) string {
	mark := "?"
	if ev.Send == (m.Kind == spec.TestcaseKind) {
		mark = "!"
	}
	var args []string
	for k, v := range ev.Args {
		args = append(args, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(args)
	if len(args) == 0 {
		return mark + ev.Action
	}
	return mark + ev.Action + "(" + strings.Join(args, ", ") + ")"
}

func varsText(vars map[string]expr.Value) string {
	var out []string
	for k, v := range vars {
		out = append(out, k+" = "+v.String())
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
