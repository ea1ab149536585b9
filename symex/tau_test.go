package symex

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

func slotModel(t *testing.T) *spec.Model {
	t.Helper()
	sys, err := specfile.LoadSystem("../examples/slot/system.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g, err := compose.Build(sys)
	if err != nil {
		t.Fatal(err)
	}
	m, err := g.Model(sys.Name, sys.File)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func actions(r *TauNode) string {
	var as []string
	for _, n := range r.Path() {
		as = append(as, n.Node.Action.Name)
	}
	return strings.Join(as, " ")
}

// TestTauReduceSlot is the slot machine's Fig. 2 (component-systems
// paper; acceptance 3(d) 3): its symbolic execution restricted by
// inclusion and τ-reduced has exactly three maximal behaviours besides
// quiescence: the forbidden bet (b ≤ 0 or b > 100, then refused!), the
// win (cash! of 10 times the bet) and the lost bet (cash! of 0).
func TestTauReduceSlot(t *testing.T) {
	z := newContext(t)
	tr := execute(t, z, slotModel(t), Options{Inclusion: true})
	red := TauReduce(tr.Root)
	var behaviours []*TauNode
	for _, l := range red.Leaves() {
		if l.Node.Name != DeltaName {
			behaviours = append(behaviours, l)
		}
	}
	if len(behaviours) != 3 {
		for _, b := range behaviours {
			t.Log(b.Trace())
		}
		t.Fatalf("%d maximal behaviours, want 3", len(behaviours))
	}
	always := func(n *Node, g expr.Expr) {
		t.Helper()
		truth, err := n.State.Decide(z, g)
		if err != nil || truth != Always {
			t.Errorf("%s: %s is %v (%v) under %s", n.PathString(), expr.Format(g), truth, err, expr.Format(n.State.PC))
		}
	}
	bet := behaviours[0].Path()[0].Node.Args[0]
	for i, want := range []string{"bet refused", "bet cash", "bet cash"} {
		b := behaviours[i]
		if got := actions(b); got != want {
			t.Errorf("behaviour %d: %s, want %s", i, got, want)
		}
		if b.Node.CutBy == nil {
			t.Errorf("behaviour %d does not loop back (not cut by inclusion)", i)
		}
	}
	always(behaviours[0].Node, expr.OrOf(expr.Compare(expr.Le, bet, expr.IntConst(0)), expr.Compare(expr.Gt, bet, expr.IntConst(100))))
	win, lose := behaviours[1], behaviours[2]
	if len(win.Tau) != 5 || len(lose.Tau) != 5 {
		t.Errorf("win and lose hide %d and %d internal steps, want 5", len(win.Tau), len(lose.Tau))
	}
	always(win.Node, expr.Compare(expr.Eq, win.Node.Args[0], expr.Arith(expr.Mul, expr.IntConst(10), win.Path()[0].Node.Args[0])))
	always(lose.Node, expr.Compare(expr.Eq, lose.Node.Args[0], expr.IntConst(0)))
	if d := red.Children; len(d) != 2 || d[1].Node.Name != DeltaName || len(d[1].Tau) != 1 {
		t.Errorf("the root's visible steps: %d, want bet? and quiescence after the initialisation", len(d))
	}
}

// TestSlotBetsInRange is acceptance 3(d) 6: no state of the system lets
// the machine hold a bet outside (0, 100], checked by Z3 on every node
// where SM has received one; SM alone allows it.
func TestSlotBetsInRange(t *testing.T) {
	z := newContext(t)
	inRange := func(st *State) expr.Expr {
		bb := st.Vars["SM.bb"]
		if bb == nil {
			bb = st.Vars["bb"]
		}
		return expr.AndOf(expr.Compare(expr.Lt, expr.IntConst(0), bb), expr.Compare(expr.Le, bb, expr.IntConst(100)))
	}
	tr := execute(t, z, slotModel(t), Options{Inclusion: true})
	checked := 0
	for _, n := range tr.Nodes {
		if !strings.HasSuffix(n.State.Loc, ",S2") && !strings.HasSuffix(n.State.Loc, ",S3") &&
			!strings.HasSuffix(n.State.Loc, ",S4") && !strings.HasSuffix(n.State.Loc, ",S5") {
			continue
		}
		checked++
		if truth, err := n.State.Decide(z, inRange(n.State)); err != nil || truth != Always {
			t.Errorf("%s: SM's bet in (0, 100] is %v (%v)", n.PathString(), truth, err)
		}
	}
	if checked != 7 {
		t.Errorf("%d nodes checked, want 7 (after the bet, then three on each of the win and lose paths)", checked)
	}
	sm, err := specfile.LoadFile("../examples/slot/sm.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	tr = execute(t, z, sm, Options{Depth: 2})
	for _, n := range tr.Nodes {
		if n.State.Loc == "S2" {
			if truth, err := n.State.Decide(z, inRange(n.State)); err != nil || truth != Sometimes {
				t.Errorf("SM alone: the bet in (0, 100] is %v (%v), want sometimes", truth, err)
			}
			return
		}
	}
	t.Error("SM alone never receives a bet")
}

// tauChain reads x, then moves internally: to the end of the tree when
// x <= 0, else by two internal steps to an output.
const tauChain = `kind: spec
name: tau
variables: {x: int}
actions:
  a: {dir: input, params: {p: int}}
  t: {dir: internal}
  o: {dir: output}
initial: {location: q0, condition: x == 0}
transitions:
  - {name: in, from: q0, action: a, assign: {x: p}, to: q1}
  - {name: up, from: q1, action: t, guard: x > 0, to: q2}
  - {name: down, from: q1, action: t, guard: x <= 0, to: q3}
  - {name: again, from: q2, action: t, to: q4}
  - {name: out, from: q4, action: o, to: q5}
`

// reducedTauChain returns the τ-reduced tree of tauChain, to depth 6,
// without δ.
func reducedTauChain(t *testing.T, z *solver.Context) *TauNode {
	t.Helper()
	m, err := specfile.ParseModel("tau.yaml", []byte(tauChain), nil)
	if err != nil {
		t.Fatal(err)
	}
	return TauReduce(execute(t, z, m, Options{Depth: 6, NoDelta: true}).Root)
}

// TestTauEnds: internal steps after which the tree ends are kept as the
// τ-ends of the visible step they follow, and as an End child of it; a
// chain of internal steps before an output is hidden in it.
func TestTauEnds(t *testing.T) {
	z := newContext(t)
	red := reducedTauChain(t, z)
	if len(red.Children) != 1 {
		t.Fatalf("root: %d visible steps, want a? only", len(red.Children))
	}
	in := red.Children[0]
	var visible, ends []string
	for _, c := range in.Children {
		visible = append(visible, c.Node.PathString()+" "+c.Label())
	}
	for _, e := range in.TauEnds {
		ends = append(ends, e.PathString())
	}
	got := strings.Join(visible, "; ") + " | " + strings.Join(ends, "; ")
	want := "[in, up, again, out] o!; [in, down] τ^1 | [in, down]"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for _, c := range in.Children {
		if c.Label() == "o!" && len(c.Tau) != 2 {
			t.Errorf("o! hides %d internal steps, want 2", len(c.Tau))
		}
	}
}

// tauLoop reads x, then loops internally on q1 without changing its
// state: inclusion cuts the loop's first step, at an internal node.
const tauLoop = `kind: spec
name: tauloop
variables: {x: int}
actions:
  a: {dir: input, params: {p: int}}
  t: {dir: internal}
  o: {dir: output}
initial: {location: q0, condition: x == 0}
transitions:
  - {name: in, from: q0, action: a, assign: {x: p}, to: q1}
  - {name: spin, from: q1, action: t, to: q1}
  - {name: out, from: q1, action: o, guard: x > 5, to: q2}
`

// TestTauCutAtInternalNode: a branch cut by inclusion at an internal
// node stays in the τ-reduced tree, marked as cut, is counted, printed
// and is a leaf (a maximal behaviour).
func TestTauCutAtInternalNode(t *testing.T) {
	z := newContext(t)
	m, err := specfile.ParseModel("tauloop.yaml", []byte(tauLoop), nil)
	if err != nil {
		t.Fatal(err)
	}
	red := TauReduce(execute(t, z, m, Options{Depth: 6, NoDelta: true, Inclusion: true}).Root)
	var cut []*TauNode
	for _, l := range red.Leaves() {
		if l.End && l.Node.CutBy != nil {
			cut = append(cut, l)
		}
	}
	if len(cut) != 1 || cut[0].Label() != "τ^1 (cut)" || cut[0].Trace() != "a?p@1 τ^1 (cut)" {
		var ls []string
		for _, l := range red.Leaves() {
			ls = append(ls, l.Trace())
		}
		t.Fatalf("leaves %q, want one internal end cut by inclusion after a?", ls)
	}
	if st := red.Stats(); st.Ends != 1 || st.CutEnds != 1 || st.Leaves != 2 || st.Visible != 2 {
		t.Errorf("stats %+v, want 2 visible steps, 2 leaves, 1 end cut", st)
	}
	var b strings.Builder
	if err := WriteTauText(&b, red, m.Variables); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"τ^1 (end) -> q1", "(cut: included in", "τ-reduced: 2 visible steps, 2 leaves, 1 internal ends (1 cut by inclusion)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
