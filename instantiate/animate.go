package instantiate

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// ErrNotInstantiable is wrapped by the error of Animate when a symbolic
// test has no instance within the bound.
var ErrNotInstantiable = errors.New("not instantiable")

// Instance is a symbolic test made concrete.
type Instance struct {
	Symbolic []*predabs.ProductTransition // the symbolic test
	Init     map[string]expr.Value        // X_0, the initial state chosen
	Steps    []Step                       // in order, inserted reflexive steps included
	Inserted int                          // how many steps are reflexive insertions
	Pending  int                          // how many steps are pending outputs let happen before an input
}

// Step is one concrete step of an instance.
type Step struct {
	Transition *spec.Transition      // the spec transition (EGA) taken
	Args       map[string]expr.Value // its parameter values, by name
	After      map[string]expr.Value // the state it leads to
	Product    *predabs.ProductState // the product state it leads to (in SP); nil for a pending output
	Reflexive  bool                  // an inserted reflexive step
	Pending    bool                  // an output the spec takes before the next input (observed, not sent)
	Input      bool                  // sent by the tester (else an output the model predicts)
}

// Animator instantiates the symbolic tests of one product: it holds the
// behavioural model, the reflexive steps of SP' and the quiescence
// conditions, computed once.
type Animator struct {
	b         *predabs.Behaviour
	s         *spec.Model
	quiescent expr.Expr // on X: no output possible
	// (purpose location, abstract label) -> EGAs of the SP' transitions
	// from there that keep the purpose location
	reflexive   map[[2]string][]*predabs.EGA
	loopOutputs map[string][]*predabs.EGA // purpose location -> output EGAs of SP' transitions that keep it
	outputs     []*predabs.EGA            // the EGAs of the spec's outputs
	K           int
	// Pending bounds the outputs the spec may take, observed, before an
	// input where it is not quiescent (DefaultPending by NewAnimator; 0:
	// an input is sent only where the spec is already quiescent).
	Pending int
}

// DefaultPending is the number of pending outputs NewAnimator lets
// happen before an input.
const DefaultPending = 2

// NewAnimator prepares the instantiation of paths of the product whose
// reflexive version is spPrime (SP'), with at most k inserted reflexive
// steps before each step of a path.
func NewAnimator(ctx *solver.Context, spPrime *predabs.Product, k int) (*Animator, error) {
	b := spPrime.Abstraction.Behaviour
	if canonical.HasInternal(b.Spec) {
		return nil, fmt.Errorf("instantiate: %s has internal actions, which the instantiation does not handle", b.Spec.Name)
	}
	a := &Animator{b: b, s: b.Spec, reflexive: map[[2]string][]*predabs.EGA{}, loopOutputs: map[string][]*predabs.EGA{}, K: k, Pending: DefaultPending}
	for _, g := range b.EGAs {
		if act := b.Spec.Action(g.Action); act != nil && act.Dir == spec.Output {
			a.outputs = append(a.outputs, g)
		}
	}
	for _, t := range spPrime.Transitions {
		if t.From.Purpose != t.To.Purpose {
			continue
		}
		key, q := stateKey(t.From), t.From.Purpose
		for _, st := range t.Steps {
			if !containsEGA(a.reflexive[key], st.EGA) {
				a.reflexive[key] = append(a.reflexive[key], st.EGA)
			}
			if !a.isInput(st.EGA) && !containsEGA(a.loopOutputs[q], st.EGA) {
				a.loopOutputs[q] = append(a.loopOutputs[q], st.EGA)
			}
		}
	}
	q, err := a.quiescence(ctx)
	if err != nil {
		return nil, err
	}
	a.quiescent = q
	return a, nil
}

func stateKey(s *predabs.ProductState) [2]string { return [2]string{s.Purpose, s.Abstract.Label} }

func containsEGA(gs []*predabs.EGA, g *predabs.EGA) bool {
	for _, h := range gs {
		if h == g {
			return true
		}
	}
	return false
}

// quiescence returns the condition on X under which no output is
// possible: the quiescence guard of each location, under @loc == l when
// the spec has several locations.
func (a *Animator) quiescence(ctx *solver.Context) (expr.Expr, error) {
	loc := a.b.Var(predabs.LocVar)
	var parts []expr.Expr
	for _, l := range a.s.Locations {
		g, _, err := canonical.QuiescenceGuard(ctx, a.s, l)
		if err != nil {
			return nil, err
		}
		if loc == nil {
			return g, nil
		}
		at := expr.Compare(expr.Eq, loc.Ref(), &expr.EnumLit{Enum: loc.Type.Enum, Index: loc.Type.Enum.Index(l)})
		parts = append(parts, expr.ImpliesOf(at, g))
	}
	return expr.AndOf(parts...), nil
}

// Animate instantiates the symbolic test path (a path of SP from an
// initial state), raising the number of reflexive insertions allowed
// before each step from 0 to a.K. It returns an error wrapping
// ErrNotInstantiable when no instance exists within the bound.
func (a *Animator) Animate(ctx *solver.Context, path []*predabs.ProductTransition) (*Instance, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("%w: an empty path", ErrNotInstantiable)
	}
	for r := 0; r <= a.K; r++ {
		u := a.unroll(path, r)
		m, ok, err := ctx.Model(u.formula)
		if errors.Is(err, solver.ErrUnknown) {
			return nil, fmt.Errorf("%w: the solver could not decide (%v)", ErrNotInstantiable, err)
		}
		if err != nil {
			return nil, err
		}
		if ok {
			inst, err := u.decode(m)
			if err != nil {
				return nil, err
			}
			if err := a.Replay(inst); err != nil {
				return nil, fmt.Errorf("instantiate: internal error: the instance does not replay: %v", err)
			}
			return inst, nil
		}
	}
	if a.K == 0 {
		return nil, fmt.Errorf("%w: no execution of the model follows it", ErrNotInstantiable)
	}
	return nil, fmt.Errorf("%w: no execution of the model follows it with at most %d reflexive steps before each step", ErrNotInstantiable, a.K)
}
