package symex

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
)

// DeltaName names the symbolic transitions of quiescence in node paths.
const DeltaName = spec.Delta

// A Node is a node of the symbolic execution tree SE(Gδ) (Def. 9): a
// symbolic state reached from the root by a path of transitions, named
// by their names. The root's path is empty.
type Node struct {
	ID     int // creation order: breadth-first for Execute
	Parent *Node
	Name   string           // the name of the transition from the parent ("delta" for quiescence)
	Trans  *spec.Transition // nil for the root and for quiescence
	Action *spec.Action     // nil for the root; the delta action for quiescence
	// Args are the fresh symbols of the action's parameters, in the
	// order of its parameters (the value received or emitted).
	Args  []*expr.Ident
	State *State
	Depth int

	Children []*Node
	Expanded bool
	Sink     bool  // after quiescence: qδ has no successor (Def. 4)
	CutBy    *Node // restriction by inclusion: this node's states are all CutBy's
	Unknown  bool  // the solver could not decide its path condition (kept)

	// Sol is, with function summaries, the solution SolveTab found for
	// the node (the paper's Sol): values of the symbols of the path (the
	// Args of every step, x@0 of open initial values) and of the calls'
	// result variables, all within the tables, that realise the path.
	// Nodes without calls on their path get a model of their path
	// condition. Nil with uninterpreted functions, or when the solver
	// could not decide (Unknown). StepValues reads it.
	Sol *expr.Valuation

	// red is the condition the solver is asked (local.go): the path
	// condition with the dead parameters of the steps eliminated; nil
	// when it is the path condition.
	red expr.Expr
	// forgot says red was left by forget (forget.go).
	forgot bool
	// step is what the step into this node added to its parent's
	// condition (incremental.go); nil when not known.
	step expr.Expr
}

// StepValues returns the values that n's solution gives to the
// parameters of step, n itself or one of its ancestors: the inputs to
// send (or outputs to expect) at that step to follow the path to n
// within the tables. A parameter that neither n's path condition nor
// its calls mention can take any value: it gets expr.Zero of its type.
// ok is false when n has no solution or step is not on n's path.
func (n *Node) StepValues(step *Node) (vals []expr.Value, ok bool) {
	if n.Sol == nil || !n.onPath(step) {
		return nil, false
	}
	vals = make([]expr.Value, len(step.Args))
	for i, a := range step.Args {
		v, found := n.Sol.Vars[a.Name]
		if !found {
			v = expr.Zero(a.T)
		}
		vals[i] = v
	}
	return vals, true
}

// onPath reports whether a is n or one of its ancestors.
func (n *Node) onPath(a *Node) bool {
	for ; n != nil; n = n.Parent {
		if n == a {
			return true
		}
	}
	return false
}

// Path returns the names of the transitions from the root to n.
func (n *Node) Path() []string {
	var p []string
	for ; n.Parent != nil; n = n.Parent {
		p = append(p, n.Name)
	}
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// PathString prints the path as "[deposit, ask, cash]".
func (n *Node) PathString() string { return "[" + strings.Join(n.Path(), ", ") + "]" }

// Label prints the symbolic action of the transition into n:
// "amount?v@1", "cash!v@2", "delta!"; "" for the root.
func (n *Node) Label() string {
	if n.Action == nil {
		return ""
	}
	mark := "!"
	switch n.Action.Dir {
	case spec.Input:
		mark = "?"
	case spec.Internal:
		mark = ""
	}
	if len(n.Args) == 0 {
		return n.Action.Name + mark
	}
	args := make([]string, len(n.Args))
	for i, a := range n.Args {
		args[i] = a.Name
	}
	return n.Action.Name + mark + strings.Join(args, ",")
}

// Options bound a symbolic execution.
type Options struct {
	// Depth bounds the paths (0: no bound; then Inclusion or MaxNodes
	// must bound the tree).
	Depth int
	// Inclusion cuts a node included in a node created before it at the
	// same location (restriction by inclusion, Def. 11).
	Inclusion bool
	// MaxNodes bounds the tree; 0 means DefaultMaxNodes.
	MaxNodes int
	// DeltaLoop makes quiescence a self-loop rather than a sink.
	DeltaLoop bool
	// NoDelta leaves quiescence out of the tree, as the symbolic
	// execution of the function-summaries paper (Defs. 2-4) does.
	NoDelta bool
	// NoIncremental checks each child's path condition in a one-shot
	// query (sliced by constraint independence) instead of in the scopes
	// kept along the path to its parent (incremental.go).
	NoIncremental bool
	// Order is the order in which Execute expands the nodes. With
	// function summaries it matters: the tables grow as nodes are
	// expanded.
	Order Order

	// Functions says how calls of external functions are decided:
	// Uninterpreted (the zero value) or Summaries.
	Functions Functions
	// Tables are the initial tables of the external functions with
	// Summaries; nil means the spec's. The executor enriches its own
	// copy (Executor.Tab).
	Tables summary.Tab
	// Summary holds m, NoDep and the implementations for SolveTab.
	Summary summary.Options
}

// Order is a traversal order of the tree.
type Order int

const (
	BFS Order = iota // breadth-first
	DFS              // depth-first, children in the spec's order
)

func (o Order) String() string { return [...]string{"bfs", "dfs"}[o] }

// Functions is the treatment of calls of external functions.
type Functions int

const (
	// Uninterpreted leaves calls in the path conditions, where the
	// solver sees uninterpreted functions: a call may return anything.
	Uninterpreted Functions = iota
	// Summaries flattens calls into fresh variables and call records
	// (the state's κ) and keeps a state iff SolveTab finds a solution
	// with the tables (function-summaries paper, §4.3).
	Summaries
)

func (f Functions) String() string { return [...]string{"uninterpreted", "summaries"}[f] }

// DefaultMaxNodes bounds a tree when Options.MaxNodes is 0.
const DefaultMaxNodes = 100000

// Stats describes a tree.
type Stats struct {
	Nodes          int  `json:"nodes"`
	Transitions    int  `json:"transitions"`
	CutByInclusion int  `json:"cut_by_inclusion"`
	LongestPath    int  `json:"longest_path"`
	Undecided      int  `json:"undecided"`     // nodes kept because the solver could not decide
	BoundReached   bool `json:"bound_reached"` // MaxNodes stopped the unfolding
	Queries        int  `json:"solver_queries"`
	// Inclusion counts the comparisons of restriction by inclusion.
	Inclusion InclusionStats `json:"inclusion"`
}

// InclusionStats count the comparisons of a new node with the earlier
// nodes at its location: skipped without a query (different literal
// values; a concrete state of the new node outside the earlier one's
// intervals, or outside its projection), and decided by the solver.
type InclusionStats struct {
	Apart      int `json:"apart"`
	ByInterval int `json:"by_interval"`
	ByPoint    int `json:"by_point"`
	Compared   int `json:"compared"`
	// Memo counts the questions (∃F. binding, inclusion, a point)
	// answered by an earlier one about a state of the same shape.
	Memo int `json:"memo"`
}

// An Executor symbolically executes one spec. It owns the names of the
// spec's transitions, the quiescence guards and the fresh-symbol
// counters, so that nodes expanded on demand (by on-line testing) get
// symbols fresh for the whole tree.
type Executor struct {
	z      *solver.Context
	m      *spec.Model
	names  map[*spec.Transition]string
	quiet  map[string]expr.Expr // quiescence guard per location, over the variables
	delta  *spec.Action
	fresh  map[string]int
	nextID int
	opts   Options
	stats  Stats
	// With Summaries: the flattening χ, the global table and the
	// figures of SolveTab.
	inc   incremental // the solver shared by the checks of siblings
	flat  *summary.Flattener
	tab   summary.Tab
	solve SolveStats
	// closed holds the answers to the closed sentences of local.go.
	closed closedMemo
	// folded holds the folded conjuncts of conditions (forget.go).
	folded conjMemo
	// noLocal asks the solver about path conditions (tests compare).
	noLocal bool
	// Notes are the over-approximations made (quiescence next to an
	// output whose guard the solver cannot handle).
	Notes []string
}

// NewExecutor prepares the symbolic execution of the spec m.
func NewExecutor(z *solver.Context, m *spec.Model, opts Options) (*Executor, error) {
	if m.Kind != spec.SpecKind {
		return nil, fmt.Errorf("%s: a %s is not a spec", m.File, m.Kind)
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = DefaultMaxNodes
	}
	m = m.WithParamRanges() // spec/ranges.go: a parameter's values lie in its range
	e := &Executor{z: z, m: m, names: Names(m), quiet: map[string]expr.Expr{}, fresh: map[string]int{}, opts: opts,
		delta: &spec.Action{Name: spec.Delta, Dir: spec.Output}}
	if err := e.initSummaries(); err != nil {
		return nil, err
	}
	for _, l := range m.Locations {
		g, notes, err := canonical.QuiescenceGuard(z, m, l)
		if err != nil {
			return nil, err
		}
		e.quiet[l] = g
		e.Notes = append(e.Notes, notes...)
	}
	return e, nil
}

// Spec returns the spec e executes.
func (e *Executor) Spec() *spec.Model { return e.m }

// Name returns the name of a transition of the spec.
func (e *Executor) Name(t *spec.Transition) string { return e.names[t] }

// Root returns the root of the tree: the initial location, the initial
// condition as path condition, free symbols for the variables it leaves
// open.
func (e *Executor) Root() (*Node, error) {
	st, err := Initial(e.z, e.m)
	if err != nil {
		return nil, err
	}
	var sol *expr.Valuation
	if e.flat != nil {
		if st, sol, err = e.flattenRoot(st); err != nil {
			return nil, err
		}
		if sol == nil {
			if sol, err = e.model(st.PC); err != nil {
				return nil, err
			}
		}
	}
	root := e.node(nil, st)
	root.Sol = sol
	return root, nil
}

// model returns a model of pc, nil when the solver cannot decide it.
func (e *Executor) model(pc expr.Expr) (*expr.Valuation, error) {
	e.stats.Queries++
	sol, ok, err := e.z.Model(pc)
	if errors.Is(err, solver.ErrUnknown) || (err == nil && !ok) {
		return nil, nil
	}
	return &sol, err
}

func (e *Executor) node(parent *Node, st *State) *Node {
	n := &Node{ID: e.nextID, Parent: parent, State: st}
	e.nextID++
	if parent != nil {
		n.Depth = parent.Depth + 1
	}
	return n
}

// symbol returns a fresh symbol for a parameter: p@1, p@2, ...
func (e *Executor) symbol(p *spec.Param) *expr.Ident {
	e.fresh[p.Name]++
	return &expr.Ident{Name: p.Name + "@" + strconv.Itoa(e.fresh[p.Name]), Kind: expr.VarIdent, T: p.Type}
}

// Expand computes the children of n once (Def. 9): one per transition
// leaving n's location whose guard is satisfiable with n's path
// condition, in the spec's order, then quiescence (Def. 4) where its
// guard is satisfiable. A query the solver cannot decide keeps the child
// (marked Unknown).
func (e *Executor) Expand(n *Node) ([]*Node, error) {
	if n.Expanded || n.Sink || n.CutBy != nil {
		return n.Children, nil
	}
	n.Expanded = true
	st := n.State
	e.enter(n)
	defer e.leave()
	for _, t := range e.m.Outgoing(st.Loc) {
		a := e.m.Action(t.Action)
		params := make(map[string]expr.Expr, len(a.Params))
		args := make([]*expr.Ident, len(a.Params))
		for i, p := range a.Params {
			args[i] = e.symbol(p)
			params[p.Name] = args[i]
		}
		g := st.Substitute(t.Guard, params)
		var next *State
		if e.flat != nil {
			var err error
			if next, err = e.fireFlat(st, t, params, g); err != nil {
				return nil, err
			}
		} else {
			next = st.Fire(t, params, g, false)
		}
		c, err := e.child(n, next, args, t.Pos)
		if err != nil || c == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		c.Name, c.Trans, c.Action, c.Args = e.names[t], t, a, args
	}
	if q := e.quiet[st.Loc]; q != nil && !expr.IsFalse(q) && !e.opts.NoDelta {
		next := &State{Loc: st.Loc, Vars: st.Vars, PC: expr.AndOf(st.PC, st.Substitute(q, nil)), Calls: st.Calls}
		if e.flat != nil {
			if err := e.flattenPC(next); err != nil {
				return nil, err
			}
		}
		c, err := e.child(n, next, nil, expr.Pos{})
		if err != nil {
			return nil, err
		}
		if c != nil {
			c.Name, c.Action, c.Sink = DeltaName, e.delta, !e.opts.DeltaLoop
		}
	}
	return n.Children, nil
}

// child adds a child of n in state st, reached by a step with the
// parameter symbols args, when st's path condition may be satisfiable.
// The solver decides the child's condition (local.go).
func (e *Executor) child(n *Node, st *State, args []*expr.Ident, pos expr.Pos) (*Node, error) {
	st.PC = foldChild(st.PC, n.State.PC)
	if expr.IsFalse(st.PC) {
		return nil, nil
	}
	if e.flat != nil && len(st.Calls) > 0 {
		return e.childSolveTab(n, st, pos)
	}
	if e.flat != nil {
		return e.childModel(n, st, pos)
	}
	red, err := e.reduce(n, st, args)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pos, err)
	}
	if expr.IsFalse(red) {
		return nil, nil
	}
	r, _, err := e.checkChild(n, red)
	unknown := errors.Is(err, solver.ErrUnknown)
	if err != nil && !unknown {
		return nil, fmt.Errorf("%s: %v", pos, err)
	}
	if r == solver.Unsat {
		return nil, nil
	}
	var step expr.Expr
	if added, ok := grownBy(red, n.cond()); ok {
		step = expr.AndOf(added...)
	}
	forgot := !unknown && !e.noLocal
	if forgot {
		red = e.forgetChild(n, red, st)
	}
	c := e.node(n, st)
	c.Unknown, c.red, c.forgot, c.step = unknown, red, forgot, step
	n.Children = append(n.Children, c)
	return c, nil
}

// childModel is child with function summaries for a state without
// calls: the model of its path condition is the node's solution.
func (e *Executor) childModel(n *Node, st *State, pos expr.Pos) (*Node, error) {
	e.stats.Queries++
	sol, ok, err := e.z.Model(st.PC)
	unknown := errors.Is(err, solver.ErrUnknown)
	if err != nil && !unknown {
		return nil, fmt.Errorf("%s: %v", pos, err)
	}
	if !ok && !unknown {
		return nil, nil
	}
	c := e.node(n, st)
	c.Unknown = unknown
	if !unknown {
		c.Sol = &sol
	}
	n.Children = append(n.Children, c)
	return c, nil
}

// Names returns the names of the transitions of m: a transition's own
// name, or, when it has none, a stable generated one, "from-action-to"
// (with "-2", "-3", ... for the second and later of the same triple),
// that no other transition's name takes. A generated name uses only the
// characters of its locations and action: no "#", which names of
// sympurposes and files refuse.
func Names(m *spec.Model) map[*spec.Transition]string {
	names := map[*spec.Transition]string{}
	taken := map[string]bool{spec.Delta: true}
	for _, t := range m.Transitions {
		if t.Name != "" {
			names[t] = t.Name
			taken[t.Name] = true
		}
	}
	for _, t := range m.Transitions {
		if t.Name != "" {
			continue
		}
		name := spec.AutoName(t, func(n string) bool { return taken[n] })
		names[t] = name
		taken[name] = true
	}
	return names
}
