package project

import (
	"slices"
	"strings"
	"testing"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

type slot struct {
	z    *solver.Context
	sys  *spec.System
	g    *compose.System
	flat *spec.Model
	tree *symex.Tree
	beh  []*symex.TauNode
	sm   *Projector
}

func newSlot(t *testing.T) *slot {
	t.Helper()
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(z.Close)
	s := &slot{z: z}
	if s.sys, err = specfile.LoadSystem("../examples/slot/system.yaml"); err != nil {
		t.Fatal(err)
	}
	if s.g, err = compose.Build(s.sys); err != nil {
		t.Fatal(err)
	}
	if s.flat, err = s.g.Model(s.sys.Name, s.sys.File); err != nil {
		t.Fatal(err)
	}
	x, err := symex.NewExecutor(z, s.flat, symex.Options{Inclusion: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.tree, err = x.Execute(nil); err != nil {
		t.Fatal(err)
	}
	s.beh = Behaviours(s.tree.Root)
	on, err := NewTarget(s.sys, s.g, s.flat, "SM")
	if err != nil {
		t.Fatal(err)
	}
	if s.sm, err = NewProjector(z, on); err != nil {
		t.Fatal(err)
	}
	return s
}

// win returns the slot's win behaviour, projected on SM.
func (s *slot) win(t *testing.T) *Projection {
	t.Helper()
	for _, b := range s.beh {
		p, err := s.sm.Project(b.Node)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Steps) > 2 && p.Steps[2].Trans.Name == "s_win" {
			return p
		}
	}
	t.Fatal("no win behaviour")
	return nil
}

func (s *slot) entails(t *testing.T, a, b expr.Expr) bool {
	t.Helper()
	ok, err := s.z.Entails(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func (s *slot) sat(t *testing.T, e expr.Expr) bool {
	t.Helper()
	ok, err := s.z.Possible(e)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func inRange(x expr.Expr) expr.Expr {
	return expr.AndOf(expr.Compare(expr.Lt, expr.IntConst(0), x), expr.Compare(expr.Le, x, expr.IntConst(100)))
}

// TestSlotBehaviours: the slot system's symbolic execution, restricted
// by inclusion and τ-reduced, has exactly three maximal behaviours
// (acceptance 3(d) 3): the forbidden bet, the win and the lost bet.
func TestSlotBehaviours(t *testing.T) {
	s := newSlot(t)
	var got []string
	for _, b := range s.beh {
		got = append(got, b.Node.Action.Name)
	}
	if strings.Join(got, " ") != "refused cash cash" {
		t.Errorf("behaviours end with %v, want refused, cash (win), cash (lost bet)", got)
	}
}

// TestSlotWinProjection is acceptance 3(d) 4 and 5: the win path
// projected on SM has six steps N0 -> ... -> N6, ec(N2) implies
// 0 < bb0 <= 100 and ec(N4) a0 = 10 bb0, the twins N'2 and N'4 are
// satisfiable (SM alone allows them) and the others are not, and the
// purpose accepts N6 only, skips N0..N5, and a twin cannot reach accept.
func TestSlotWinProjection(t *testing.T) {
	s := newSlot(t)
	p := s.win(t)
	var names []string
	for _, st := range p.Steps {
		names = append(names, st.Target.Node.Name+":"+st.Target.Node.Label())
	}
	want := "s_init:int_start! s_bet:int_bet?v@1 s_win:int_win!r@1 s_amount:int_amount?v@2 s_pay:int_cash!v@3 s_end:int_start!"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("projection %s\nwant       %s", got, want)
	}
	n := func(i int) Extended { return p.Steps[i-1].Target }
	bb0, a0 := n(2).Node.Args[0], n(4).Node.Args[0]
	cond := func(e Extended) expr.Expr { return expr.AndOf(e.Node.State.PC, e.EC) }
	if !s.entails(t, cond(n(2)), inRange(bb0)) {
		t.Errorf("ec(N2) = %s does not imply 0 < bb0 <= 100", expr.Format(n(2).EC))
	}
	if s.entails(t, n(2).Node.State.PC, inRange(bb0)) {
		t.Error("SM's own path condition already bounds the bet: the constraint is not external")
	}
	gain := expr.Compare(expr.Eq, a0, expr.Arith(expr.Mul, expr.IntConst(10), bb0))
	if !s.entails(t, cond(n(4)), gain) {
		t.Errorf("ec(N4) = %s does not imply a0 = 10 bb0", expr.Format(n(4).EC))
	}
	for i, st := range p.Steps {
		wantTwin := i == 1 || i == 3
		if st.TwinSat != wantTwin {
			t.Errorf("twin N'%d satisfiable: %v, want %v", i+1, st.TwinSat, wantTwin)
		}
	}
	twin2 := expr.AndOf(p.Steps[1].Twin.Node.State.PC, p.Steps[1].Twin.EC)
	if !s.entails(t, twin2, expr.NotOf(inRange(bb0))) {
		t.Errorf("N'2 = %s allows a bet in (0, 100]", expr.Format(twin2))
	}
	twin4 := expr.AndOf(p.Steps[3].Twin.Node.State.PC, p.Steps[3].Twin.EC)
	if !s.sat(t, expr.AndOf(twin4, inRange(bb0), expr.NotOf(gain))) || s.sat(t, expr.AndOf(twin4, gain)) {
		t.Errorf("N'4 = %s is not the gain other than 10 times the bet", expr.Format(twin4))
	}
	tp, err := s.sm.Purpose(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Accept) != 1 || tp.Accept[0].Node != n(6).Node {
		t.Fatalf("accept = %d nodes, want {N6}", len(tp.Accept))
	}
	nodes := []*symex.Node{p.Init.Node}
	for _, st := range p.Steps {
		nodes = append(nodes, st.Target.Node)
	}
	for i, nd := range nodes {
		want := symex.Skip
		if i == 6 {
			want = symex.Accept
		}
		if got := tp.Label(nd); got != want {
			t.Errorf("TP(N%d) = %s, want %s", i, got, want)
		}
	}
	accept := cond(tp.Accept[0])
	for _, i := range []int{1, 3} {
		tw := p.Steps[i].Twin
		if s.sat(t, expr.AndOf(accept, tw.EC)) {
			t.Errorf("twin N'%d reaches accept: it must be ⊥", i+1)
		}
	}
}

// TestSlotBetsOnlyInRange is acceptance 3(d) 6 through the projection:
// on every behaviour of the system, every state of SM after its bet
// holds a bet in (0, 100] under its external constraint.
func TestSlotBetsOnlyInRange(t *testing.T) {
	s := newSlot(t)
	checked := 0
	for _, b := range s.beh {
		p, err := s.sm.Project(b.Node)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range p.Steps {
			bb := st.Target.Node.State.Vars["bb"]
			if st.Target.Node.Depth < 2 {
				continue
			}
			checked++
			if !s.entails(t, expr.AndOf(st.Target.Node.State.PC, st.Target.EC), inRange(bb)) {
				t.Errorf("%s: SM holds a bet outside (0, 100] under %s", st.Target.Node.PathString(), expr.Format(st.Target.EC))
			}
		}
	}
	if checked != 10 {
		t.Errorf("%d states checked, want 10 (five after the bet on the win and lost paths)", checked)
	}
}

// TestSlotPurposeFile: the purpose of the win path, written as a
// sympurpose of sm.yaml, reads back with its constraint.
func TestSlotPurposeFile(t *testing.T) {
	s := newSlot(t)
	p := s.win(t)
	tp, err := s.sm.Purpose(p)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := tp.SymPurpose(s.z, "slot-sm-win", "sm.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := specfile.MarshalSymPurpose(sp)
	if err != nil {
		t.Fatal(err)
	}
	want := `kind: sympurpose
name: slot-sm-win
spec: sm.yaml
accept:
  - path: [s_init, s_bet, s_win, s_amount, s_pay, s_end]
    constraint: s_bet.v <= 100 && s_bet.v > 0 && s_amount.v == 10 * s_bet.v
`
	if string(data) != want {
		t.Errorf("got\n%s\nwant\n%s", data, want)
	}
	back, err := specfile.ParseSymPurpose("slot-sm-win.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Accept[0].Constraint != sp.Accept[0].Constraint {
		t.Errorf("constraint read back as %q", back.Accept[0].Constraint)
	}
}

// TestLostBetAndForbidden: the lost-bet path gives a constraint with a
// gain of 0; the forbidden bet moves SM by its initialisation only,
// whose purpose accepts [s_init] without a constraint.
func TestLostBetAndForbidden(t *testing.T) {
	s := newSlot(t)
	var got []string
	for _, b := range s.beh {
		p, err := s.sm.Project(b.Node)
		if err != nil {
			t.Fatal(err)
		}
		tp, err := s.sm.Purpose(p)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := tp.SymPurpose(s.z, "x", "sm.yaml")
		if err != nil {
			t.Fatal(err)
		}
		a := sp.Accept[0]
		got = append(got, a.String()+" | "+a.Constraint)
	}
	want := []string{
		"s_init | ",
		"s_init s_bet s_win s_amount s_pay s_end | s_bet.v <= 100 && s_bet.v > 0 && s_amount.v == 10 * s_bet.v",
		"s_init s_bet s_lose s_amount s_pay s_end | s_bet.v <= 100 && s_bet.v > 0 && s_amount.v == 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProjectEndingWithInput: the system path to the player's bet,
// projected on Int, ends with Int's input i_bet, so the purpose of Def
// 18 accepts its extensions by τ*·output: the refusal and the
// forwarding of the bet; Int is never quiescent there (Def 14), so no δ.
func TestProjectEndingWithInput(t *testing.T) {
	s := newSlot(t)
	var bet *symex.Node
	for _, n := range s.tree.Nodes {
		if n.PathString() == "[SM.s_init+{Int.i_start}, {Int.i_bet}]" {
			bet = n
		}
	}
	if bet == nil {
		t.Fatal("no bet node in the system's tree")
	}
	on, err := NewTarget(s.sys, s.g, s.flat, "Int")
	if err != nil {
		t.Fatal(err)
	}
	pj, err := NewProjector(s.z, on)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pj.Project(bet)
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != "[i_start, i_bet]" {
		t.Fatalf("projection %s, want [i_start, i_bet]", p)
	}
	tp, err := pj.Purpose(p)
	if err != nil {
		t.Fatal(err)
	}
	var acc []string
	for _, a := range tp.Accept {
		acc = append(acc, a.Node.PathString())
	}
	if got := strings.Join(acc, " "); got != "[i_start, i_bet, i_refuse] [i_start, i_bet, i_forward]" {
		t.Errorf("accept %s", got)
	}
	if tp.Label(p.Steps[1].Target.Node) != symex.Skip {
		t.Errorf("the bet's state is %s, want skip", tp.Label(p.Steps[1].Target.Node))
	}
}

// TestConstraintsSound: on every behaviour of the slot, projected on SM
// and on Int, every system valuation of every step satisfies the
// external constraint of its projection (Z3 as the oracle, on the
// system's own path condition, its unshared symbols left free): the
// constraint over-approximates nothing away. And the twin with the
// constraint is exactly the component's state without it.
func TestConstraintsSound(t *testing.T) {
	s := newSlot(t)
	for _, on := range []string{"SM", "Int"} {
		target, err := NewTarget(s.sys, s.g, s.flat, on)
		if err != nil {
			t.Fatal(err)
		}
		pj, err := NewProjector(s.z, target)
		if err != nil {
			t.Fatal(err)
		}
		steps := 0
		for _, b := range s.beh {
			p, err := pj.Project(b.Node)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range p.Steps {
				steps++
				sys, _ := p.rename(st.System.State.PC)
				if !s.entails(t, sys, st.CT) {
					t.Errorf("%s on %s: the system's %s does not imply ct = %s", st.System.PathString(), on, expr.Format(sys), expr.Format(st.CT))
				}
				both := expr.OrOf(st.Target.EC, st.Twin.EC)
				prev := p.Init.EC
				if i := slices.Index(p.Steps, st); i > 0 {
					prev = p.Steps[i-1].Target.EC
				}
				if !s.entails(t, prev, both) {
					t.Errorf("%s on %s: the twins do not cover the state", st.System.PathString(), on)
				}
			}
		}
		if steps == 0 {
			t.Errorf("nothing projected on %s", on)
		}
	}
}

// TestPurposeFilesOnce: a projection given twice gives one file.
func TestPurposeFilesOnce(t *testing.T) {
	s := newSlot(t)
	sess := &Session{System: s.sys, Composed: s.g, Flat: s.flat, Tree: s.tree, Projector: s.sm}
	win := s.win(t).Leaf
	files, skipped, err := sess.PurposeFiles(s.z, []*symex.Node{win, win}, t.TempDir())
	if err != nil || len(skipped) > 0 || len(files) != 1 {
		t.Fatalf("%d files, %v, %v", len(files), skipped, err)
	}
	if !strings.HasSuffix(files[0].Path, "slot-SM-s_init-s_bet-s_win-s_amount-s_pay-s_end.yaml") {
		t.Errorf("file %s", files[0].Path)
	}
}

// TestInternalCutIsABehaviour: in the spin system, inclusion cuts the
// hidden exchange between A and B at internal nodes; those branches are
// maximal behaviours of the τ-reduced tree (marked as cut), and the one
// where B receives projects onto B's two receptions.
func TestInternalCutIsABehaviour(t *testing.T) {
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(z.Close)
	s, err := Load(z, "testdata/spin/system.yaml", "B", symex.Options{Inclusion: true})
	if err != nil {
		t.Fatal(err)
	}
	var cut []*symex.TauNode
	for _, b := range s.Behaviours() {
		if b.End && b.Node.CutBy != nil {
			cut = append(cut, b)
		}
	}
	if len(cut) != 2 {
		t.Fatalf("%d behaviours cut at an internal node, want 2", len(cut))
	}
	var steps []int
	for _, b := range cut {
		p, err := s.Project(b.Node)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, len(p.Steps))
	}
	if !slices.Equal(steps, []int{2, 0}) {
		t.Errorf("projections onto B of %d and %d steps, want 2 (B receives twice) and 0", steps[0], steps[1])
	}
}

// TestExternalConstraintsSimplified: the external constraint of every
// projected step of the slot's behaviours (onto SM) is printed without a
// conjunct the others imply (d >= 6, not d >= 1 && d >= 5 && d >= 6),
// checked by Z3, and is equivalent to the conjunction it simplifies.
func TestExternalConstraintsSimplified(t *testing.T) {
	s := newSlot(t)
	checked := 0
	for _, b := range s.beh {
		p, err := s.sm.Project(b.Node)
		if err != nil {
			t.Fatal(err)
		}
		prev := p.Init.EC
		for _, st := range p.Steps {
			ec := st.Target.EC
			if ok, err := s.z.Equivalent(ec, expr.AndOf(prev, st.CT)); err != nil || !ok {
				t.Errorf("%s: ec %s is not prev ∧ ct (%v)", st.Target.Node.PathString(), expr.Format(ec), err)
			}
			cs := expr.Conjuncts(ec)
			for i, c := range cs {
				rest := expr.AndOf(append(append([]expr.Expr(nil), cs[:i]...), cs[i+1:]...)...)
				if len(cs) > 1 && s.entails(t, rest, c) {
					t.Errorf("%s: ec %s: %s is implied by the others", st.Target.Node.PathString(), expr.Format(ec), expr.Format(c))
				}
				checked++
			}
			prev = ec
		}
	}
	if checked == 0 {
		t.Error("no conjunct checked")
	}
}
