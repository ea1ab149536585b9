package online

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// An Event is an action of a test run in the paper's notation: a
// stimulation stim(c?t) the tester sent, or an observation obs(c!t) of
// an output of the SUT or of quiescence (Action spec.Delta, no Args).
type Event struct {
	Stim   bool
	Action string
	Args   map[string]expr.Value // by parameter name
	// Bad, when not empty, says why an observed output is not an
	// output of the spec (an unknown action, ill-typed arguments): no
	// symbolic transition matches it.
	Bad string
}

// Quiescence is the observation of quiescence, δ!.
func Quiescence() Event { return Event{Action: spec.Delta} }

// String prints ev as the paper does: "deposit?250", "cash!50",
// "delta!", and "a?(p=1, q=2)" for several parameters.
func (ev Event) String() string {
	mark := "!"
	if ev.Stim {
		mark = "?"
	}
	switch len(ev.Args) {
	case 0:
		return ev.Action + mark
	case 1:
		for _, v := range ev.Args {
			return ev.Action + mark + v.String()
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(ev.Args)) {
		parts = append(parts, k+"="+ev.Args[k].String())
	}
	return ev.Action + mark + "(" + strings.Join(parts, ", ") + ")"
}

// A Context is a context (s, f) of Def. 14: a node s of the symbolic
// execution tree and the formula f over its symbols that the events
// seen so far impose: the conjunction of the equalities between the
// observed or sent values and the parameter symbols of the path to s.
// Contexts are immutable.
type Context struct {
	Node *symex.Node
	// Values are f's equalities: the value of each parameter symbol of
	// the path (by symbol name, "v@2").
	Values map[string]expr.Value
	// Undecided reports that the solver could not decide whether f ∧
	// π(s) is satisfiable: the context is kept, as if it were.
	Undecided bool
	// Accepted reports that the path to Node went through an accept
	// node of the purpose (its external constraint holding): the
	// context explains the run as one that reached the target. Only an
	// execution observing after WeakPass (Options.AfterWeakPass) goes
	// on from such a context.
	Accepted bool
	// sig tells the readings of the run apart when outputs crossed
	// stimuli (queue.go): for each output judged while stimuli were in
	// flight, how many stimuli the SUT had consumed before it.
	sig string
}

// F returns f, the conjunction of the equalities, in the order of the
// symbols along the path.
func (c Context) F() expr.Expr {
	var eqs []expr.Expr
	for _, n := range ancestry(c.Node) {
		for _, id := range n.Args {
			if v, ok := c.Values[id.Name]; ok {
				eqs = append(eqs, expr.Compare(expr.Eq, id, v.Expr()))
			}
		}
	}
	return expr.AndOf(eqs...)
}

// ancestry returns the nodes from the root to n.
func ancestry(n *symex.Node) []*symex.Node {
	var ns []*symex.Node
	for ; n != nil; n = n.Parent {
		ns = append(ns, n)
	}
	slices.Reverse(ns)
	return ns
}

// String prints c as "([deposit, ask], v@2 == 250 && v@5 == 50)".
func (c Context) String() string {
	return fmt.Sprintf("(%s, %s)", c.Node.PathString(), expr.Format(c.F()))
}

// under returns e with f's symbols replaced by their values: since f is
// a conjunction of equalities between distinct symbols and literals,
// f ∧ e is satisfiable iff under(e) is.
func (c Context) under(e expr.Expr) expr.Expr {
	if len(c.Values) == 0 {
		return e
	}
	sub := make(map[string]expr.Expr, len(c.Values))
	for k, v := range c.Values {
		sub[k] = v.Expr()
	}
	return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
		if symex.IsSymbol(id) {
			return sub[id.Name]
		}
		return nil
	})
}

// with returns the context (n, f ∧ args = ev's values), or false when
// ev lacks a parameter of n's action or gives it a value of another
// type.
func (c Context) with(n *symex.Node, ev Event) (Context, bool) {
	next := Context{Node: n, Values: c.Values, Accepted: c.Accepted, sig: c.sig}
	if len(n.Args) == 0 {
		return next, len(ev.Args) == 0
	}
	if len(ev.Args) != len(n.Args) {
		return next, false
	}
	next.Values = maps.Clone(c.Values)
	if next.Values == nil {
		next.Values = make(map[string]expr.Value, len(n.Args))
	}
	for i, p := range n.Action.Params {
		v, ok := ev.Args[p.Name]
		if !ok || v.T != p.Type {
			return next, false
		}
		next.Values[n.Args[i].Name] = v
	}
	return next, true
}
