package spec

import (
	"fmt"
	"sync/atomic"

	"github.com/stg-tool/stg/spec/expr"
)

// ModelKind says which kind of file a file of stg is: one of the three
// kinds of ioSTS (docs/reference.md#model-files), or a symbolic purpose (docs/reference.md#trace-files),
// which is not an ioSTS: PeekKind reports it, ParseModel rejects it and
// ParseSymPurpose reads it; a system; or, as Open tells them, a tables
// file or a trace file. A Model's Kind is SpecKind, PurposeKind or
// TestcaseKind.
type ModelKind int

const (
	SpecKind       ModelKind = iota // a specification
	PurposeKind                     // a test purpose
	TestcaseKind                    // a test case written by stg generate
	SymPurposeKind                  // a symbolic purpose (see SymPurpose)
	SystemKind                      // a system of components (see System)
	TablesKind                      // known rows of external functions (see LoadTables)
	TraceKind                       // a recorded run, JSON Lines (see ReadTrace)
)

func (k ModelKind) String() string {
	if k < 0 || k > TraceKind {
		return fmt.Sprintf("ModelKind(%d)", int(k))
	}
	return [...]string{"spec", "purpose", "testcase", "sympurpose", "system", "tables", "trace"}[k]
}

// Dir is the direction of an action. Specs use Input, Output and
// Internal (from the SUT's point of view); test cases use Send and
// Receive (from the tester's).
type Dir int

const (
	Input    Dir = iota // the SUT receives
	Output              // the SUT emits
	Internal            // tau
	Send                // tester -> SUT (testcase)
	Receive             // SUT -> tester (testcase)
)

func (d Dir) String() string {
	return [...]string{"input", "output", "internal", "send", "receive"}[d]
}

// Delta is the reserved name of quiescence.
const Delta = "delta"

// Otherwise is the action name of a purpose's "*" transitions.
const Otherwise = "*"

// Model is an ioSTS M = <D, Θ, L, l0, Σ, T> (Definition 1 of the STG
// paper) together with what its kind adds: the Accept locations of a
// purpose, the verdict locations of a test case.
type Model struct {
	Kind ModelKind
	Name string
	File string // the file it was read from, or ""

	Enums     []*expr.Enum     // declared enumerated types, in order
	Variables []*Variable      // V, in order
	Funcs     []*expr.Func     // functions (declared under functions:)
	Tables    string           // the tables file named by tables:, as written, or ""
	Arrays    []*expr.ArrayVar // array variables, desugared into their cells in Variables

	TablesPath string    // Tables, relative to the working directory
	Actions    []*Action // Σ, in order; a purpose's actions are its spec's
	Locations  []string  // L, in order of first appearance (or as listed)
	Initial    Initial   // l0 and Θ

	// Invariant is a predicate on the variables that holds in every
	// reachable state (a spec's invariant:), or nil. It is a claim of
	// the model's author: analyses may assume it, stg check tests it.
	Invariant expr.Expr

	Accept   []string    // purpose: Accept locations
	LTS      *PurposeLTS // purpose: state predicates and arcs as written (purposeext.go)
	Verdicts Verdicts    // testcase: verdict locations
	Analysis *Analysis   // testcase: reach and coreach per location (analysis.go), or nil

	Transitions []*Transition // T, in order

	outgoing atomic.Value // *outIndex: Outgoing's index of Transitions

	// Spec is, for a purpose, the spec whose variables it reads.
	Spec *Model
}

// Variable is an attribute variable. A cell of an array variable
// `a: [N]T` is the scalar Variable named "a[i]" (see Func).
type Variable struct {
	Name  string
	Type  expr.Type
	Range *expr.Range // bounds of an int variable (range: [lo, hi]), or nil
	Pos   expr.Pos
}

// Param is a communication parameter of an action.
type Param struct {
	Name  string
	Type  expr.Type
	Range *expr.Range // bounds of an int parameter (range: [lo, hi]; ranges.go), or nil
	Pos   expr.Pos
}

// Action is an element of the alphabet with its signature.
type Action struct {
	Name   string
	Dir    Dir
	Params []*Param
	Pos    expr.Pos
}

// Initial is the initial location and condition Θ.
type Initial struct {
	Location  string
	Condition expr.Expr // true when absent
	Pos       expr.Pos
}

// Verdicts lists the verdict locations of a test case.
type Verdicts struct {
	Pass, Fail, Inconc []string
}

// Transition is a symbolic transition <l, a, G, A, l'>.
type Transition struct {
	Name   string // optional
	From   string
	Action string    // an action name, or Otherwise in a purpose
	Guard  expr.Expr // on V ∪ sig(a); true when absent
	Assign []Assignment
	To     string
	Pos    expr.Pos
}

// Assignment is one of a transition's simultaneous assignments x := e.
type Assignment struct {
	Var   string
	Value expr.Expr
	Pos   expr.Pos
}

// IsOtherwise reports whether t is a purpose's "*" transition.
func (t *Transition) IsOtherwise() bool { return t.Action == Otherwise }

// Label returns a short human-readable description of t:
// "From -action-> To" or its name.
func (t *Transition) Label() string {
	if t.Name != "" {
		return t.Name
	}
	return t.From + " -" + t.Action + "-> " + t.To
}

// Action returns the action called name, or nil.
func (m *Model) Action(name string) *Action {
	for _, a := range m.Actions {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Variable returns the variable called name, or nil.
func (m *Model) Variable(name string) *Variable {
	for _, v := range m.Variables {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Enum returns the enumerated type called name, or nil.
func (m *Model) Enum(name string) *expr.Enum {
	for _, e := range m.Enums {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// HasLocation reports whether l is a location of m.
func (m *Model) HasLocation(l string) bool {
	for _, x := range m.Locations {
		if x == l {
			return true
		}
	}
	return false
}

// IsAccept reports whether l is an Accept location of a purpose.
func (m *Model) IsAccept(l string) bool { return contains(m.Accept, l) }

// Verdict returns "pass", "fail" or "inconc" for a verdict location of a
// test case, and "" otherwise.
func (m *Model) Verdict(l string) string {
	switch {
	case contains(m.Verdicts.Pass, l):
		return "pass"
	case contains(m.Verdicts.Fail, l):
		return "fail"
	case contains(m.Verdicts.Inconc, l):
		return "inconc"
	}
	return ""
}

// Outgoing returns the transitions leaving l, in order.
//
// On large models it reads an index of Transitions by source, built on
// first use and rebuilt when the slice is replaced or grows, or when a
// listed transition no longer leaves l (a scan per call made the
// product quadratic). A transition changed in place so that it now
// leaves l is not seen until the index is rebuilt.
func (m *Model) Outgoing(l string) []*Transition {
	all := m.Transitions
	if len(all) < outIndexMin {
		var ts []*Transition
		for _, t := range all {
			if t.From == l {
				ts = append(ts, t)
			}
		}
		return ts
	}
	idx, _ := m.outgoing.Load().(*outIndex)
	if idx == nil || idx.base != &all[0] || idx.n != len(all) {
		idx = newOutIndex(all)
		m.outgoing.Store(idx)
	}
	var ts []*Transition
	for _, i := range idx.from[l] {
		if all[i].From != l { // replaced in place: index again
			m.outgoing.Store(newOutIndex(all))
			return m.Outgoing(l)
		}
		ts = append(ts, all[i])
	}
	return ts
}

// outIndexMin is the number of transitions from which Outgoing indexes.
const outIndexMin = 256

// outIndex lists, per source location, the positions of its transitions
// in the slice starting at base, of length n.
type outIndex struct {
	base **Transition
	n    int
	from map[string][]int
}

func newOutIndex(ts []*Transition) *outIndex {
	idx := &outIndex{base: &ts[0], n: len(ts), from: map[string][]int{}}
	for i, t := range ts {
		idx.from[t.From] = append(idx.from[t.From], i)
	}
	return idx
}

// AssignedValue returns the expression assigned to v by t, or a
// reference to v itself (unassigned variables keep their value).
func (t *Transition) AssignedValue(v *Variable) expr.Expr {
	for _, a := range t.Assign {
		if a.Var == v.Name {
			return a.Value
		}
	}
	return expr.VarRef(v.Name, v.Type)
}

// ParamScope returns the scope of expressions on transitions labelled
// by a: the model's variables (and, for a purpose, its spec's), a's
// parameters, the enum constants and the functions.
func (m *Model) ParamScope(a *Action) *expr.Scope {
	s := &expr.Scope{Vars: map[string]expr.Type{}, Params: map[string]expr.Type{}, Consts: map[string]*expr.Enum{}, Funcs: map[string]*expr.Func{}, Arrays: map[string]*expr.ArrayVar{}}
	add := func(m *Model) {
		for _, v := range m.Variables {
			s.Vars[v.Name] = v.Type
		}
		for _, e := range m.Enums {
			for _, c := range e.Values {
				s.Consts[c] = e
			}
		}
		for _, f := range m.Funcs {
			s.Funcs[f.Name] = f
		}
		for _, a := range m.ArrayDecls() {
			s.Arrays[a.Name] = a
		}
	}
	if m.Spec != nil {
		add(m.Spec)
	}
	add(m)
	if a != nil {
		for _, p := range a.Params {
			s.Params[p.Name] = p.Type
		}
	}
	return s
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Clone returns a copy of m whose slices and transitions can be changed
// without affecting m (expressions are immutable and shared).
func (m *Model) Clone() *Model {
	c := *m
	c.Enums = append([]*expr.Enum(nil), m.Enums...)
	c.Variables = append([]*Variable(nil), m.Variables...)
	c.Arrays = append([]*expr.ArrayVar(nil), m.Arrays...)
	c.Funcs = append([]*expr.Func(nil), m.Funcs...)
	c.Actions = append([]*Action(nil), m.Actions...)
	c.Locations = append([]string(nil), m.Locations...)
	c.Accept = append([]string(nil), m.Accept...)
	c.Verdicts = Verdicts{
		Pass:   append([]string(nil), m.Verdicts.Pass...),
		Fail:   append([]string(nil), m.Verdicts.Fail...),
		Inconc: append([]string(nil), m.Verdicts.Inconc...),
	}
	c.Transitions = nil
	for _, t := range m.Transitions {
		u := *t
		u.Assign = append([]Assignment(nil), t.Assign...)
		c.Transitions = append(c.Transitions, &u)
	}
	return &c
}
