package project

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/internal/randsys"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// TestProjectRandom: on random systems of two or three components (as
// compose's trace tests build them), every maximal path of the system's
// symbolic execution up to depth 4 is projected on every component, and
// Z3 checks Defs 12 and 15: the steps are those of the system that the
// component takes part in (Def 9); the system's path condition implies
// each step's external constraint (no system run is cut off); every
// model of a constraint extends to a run of the system (the
// elimination of the system's own symbols is exact); each step's target
// is satisfiable; and a step's two twins cover its source. 4 systems
// by default, 8 with STG_LONG=1.
func TestProjectRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	checked, steps := 0, 0
	systems := testlong.Runs(4, 8) // random systems checked
	for i := 0; checked < systems && i < 300; i++ {
		dir := t.TempDir()
		path := randomSystem(rng, dir)
		sys, err := specfile.LoadSystem(path)
		if err != nil {
			continue
		}
		g, err := compose.Build(sys)
		if err != nil {
			t.Fatal(err)
		}
		flat, err := g.Model(sys.Name, sys.File)
		if err != nil {
			continue // a visible channel in both directions
		}
		s := newSlotLike(t, z, sys, g, flat)
		for _, c := range sys.Components {
			steps += s.checkOn(t, c.Name)
		}
		checked++
	}
	if checked < systems {
		t.Fatalf("only %d random systems checked", checked)
	}
	t.Logf("%d systems, %d projected steps checked", checked, steps)
}

func newSlotLike(t *testing.T, z *solver.Context, sys *spec.System, g *compose.System, flat *spec.Model) *slot {
	s := &slot{z: z, sys: sys, g: g, flat: flat}
	x, err := symex.NewExecutor(s.z, flat, symex.Options{Depth: 4, NoDelta: true, MaxNodes: 150})
	if err != nil {
		t.Fatal(err)
	}
	if s.tree, err = x.Execute(nil); err != nil {
		t.Fatal(err)
	}
	return s
}

// checkOn checks the projections on component on of every path of the
// tree, and returns the number of steps checked.
func (s *slot) checkOn(t *testing.T, on string) int {
	target, err := NewTarget(s.sys, s.g, s.flat, on)
	if err != nil {
		t.Fatal(err)
	}
	pj, err := NewProjector(s.z, target)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, leaf := range s.tree.Nodes {
		if len(leaf.Children) > 0 {
			continue // its path is a prefix of a leaf's
		}
		p, err := pj.Project(leaf)
		if err != nil {
			t.Fatalf("%s: %v", s.sys.Structure, err)
		}
		moves := 0
		for _, sn := range p.Path {
			if target.project(sn.Trans) != nil {
				moves++
			}
			if strings.Contains(sn.Name, on+".") != (target.project(sn.Trans) != nil) {
				t.Fatalf("%s: %s moves %s: %v", s.sys.Structure, sn.Name, on, target.project(sn.Trans) != nil)
			}
		}
		if moves != len(p.Steps) {
			t.Fatalf("%s on %s: %d steps, %d system steps move it", leaf.PathString(), on, len(p.Steps), moves)
		}
		prev := p.Init.EC
		for _, st := range p.Steps {
			n++
			sys, others := p.rename(st.System.State.PC)
			where := fmt.Sprintf("%s: %s on %s", s.sys.Structure, st.System.PathString(), on)
			if !s.entails(t, sys, st.CT) {
				t.Fatalf("%s: the system's %s does not imply ct = %s", where, expr.Format(sys), expr.Format(st.CT))
			}
			if !s.sat(t, expr.AndOf(st.Target.Node.State.PC, st.Target.EC)) {
				t.Fatalf("%s: the target π ∧ ec is unsatisfiable", where)
			}
			if !s.entails(t, prev, expr.OrOf(st.Target.EC, st.Twin.EC)) {
				t.Fatalf("%s: the twins do not cover the source", where)
			}
			prev = st.Target.EC
			val, ok, err := s.z.Model(st.CT)
			if err != nil || !ok {
				t.Fatalf("%s: ct %s has no model (%v)", where, expr.Format(st.CT), err)
			}
			fixed := expr.Rewrite(sys, func(id *expr.Ident) expr.Expr {
				if v, ok := val.Vars[id.Name]; ok && !strings.HasPrefix(id.Name, "sys:") {
					return v.Expr()
				}
				return nil
			})
			if len(others) > 0 && !s.sat(t, fixed) {
				t.Fatalf("%s: the model %v of ct = %s is no run of the system %s", where, val.Vars, expr.Format(st.CT), expr.Format(sys))
			}
		}
	}
	return n
}

// randomSystem writes a random system and its components into dir:
// every channel carries a parameter, every channel is hidden.
func randomSystem(rng *rand.Rand, dir string) string {
	path, err := randsys.Write(rng, dir, randsys.Options{
		Structures2:  []string{"Hide([c], A * B)", "Hide([c, d], A * B)", "Hide([c, d, e], A * B)", "Hide([c, d, e], B * A)"},
		Structures3:  []string{"Hide([c, d, e], (A * B) * C)", "Hide([c, d, e], A * (B * C))", "Hide([d, e], Hide([c], C * A) * B)"},
		Params:       []string{"c", "d", "e"},
		ParamGuards:  []string{"p > 0", "p == x", "p != x && p < 3", "p > x + 1"},
		ParamAssigns: []string{"x: p", "x: p + x"},
	})
	if err != nil {
		panic(err)
	}
	return path
}
