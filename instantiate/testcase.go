package instantiate

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// Sink is the location of the linear purpose that every action off the
// path leads to: Accept is not reachable from it, so the test case gives
// Inconc there (or Fail for an output the spec does not allow).
const Sink = "Sink"

// Purpose returns the linear purpose of an instance: locations s0 ... sn
// (sn accepting), from s_i the action of step i+1 with its parameter
// values (those the path depends on: see bound) to s_{i+1}, quiescence looping on s_i where step i+1 is an
// input (the tester may observe silence before it sends), and any other
// action to Sink. Its guards read only parameters: the spec, which is
// deterministic, decides the states.
func Purpose(s *spec.Model, inst *Instance, name string) (*spec.Model, error) {
	type arc struct {
		From   string `yaml:"from"`
		Action string `yaml:"action"`
		Guard  string `yaml:"guard,omitempty"`
		To     string `yaml:"to"`
	}
	type file struct {
		Kind        string            `yaml:"kind"`
		Name        string            `yaml:"name"`
		Variables   map[string]string `yaml:"variables"`
		Initial     map[string]string `yaml:"initial"`
		Accept      []string          `yaml:"accept"`
		Transitions []arc             `yaml:"transitions"`
	}
	loc := func(i int) string { return fmt.Sprintf("s%d", i) }
	f := file{Kind: "purpose", Name: name, Variables: map[string]string{}, Initial: map[string]string{"location": loc(0)}, Accept: []string{loc(len(inst.Steps))}}
	for i, st := range inst.Steps {
		f.Transitions = append(f.Transitions, arc{From: loc(i), Action: st.Transition.Action, Guard: argsGuard(s, st), To: loc(i + 1)})
		if st.Input {
			f.Transitions = append(f.Transitions, arc{From: loc(i), Action: spec.Delta, To: loc(i)})
		}
		f.Transitions = append(f.Transitions, arc{From: loc(i), Action: spec.Otherwise, To: Sink})
	}
	data, err := yaml.Marshal(f)
	if err != nil {
		return nil, err
	}
	tp, err := specfile.ParseModel(name+".purpose.yaml", data, s)
	if err != nil {
		return nil, fmt.Errorf("instantiate: internal error: the linear purpose does not load: %v\n%s", err, data)
	}
	return tp, nil
}

// argsGuard is p1 == v1 && p2 == v2 ... over the parameters of the
// step's action that the path depends on (bound), in the action's
// order; "" without any.
func argsGuard(s *spec.Model, st Step) string {
	var eqs []expr.Expr
	for _, p := range s.Action(st.Transition.Action).Params {
		if bound(s, st, p.Name) {
			eqs = append(eqs, expr.Compare(expr.Eq, expr.ParamRef(p.Name, p.Type), st.Args[p.Name].Expr()))
		}
	}
	if len(eqs) == 0 {
		return ""
	}
	return expr.Format(expr.AndOf(eqs...))
}

// Testcase returns the test case of an instance: its linear purpose
// (Purpose) through the STG pipeline with the polyhedra analysis.
func Testcase(ctx *solver.Context, s *spec.Model, inst *Instance, name string) (*spec.Model, error) {
	tp, err := Purpose(s, inst, name)
	if err != nil {
		return nil, err
	}
	res, err := pipeline.Models(ctx, s, tp, pipeline.Options{Domain: "polyhedra"})
	if err != nil {
		return nil, err
	}
	return res.Testcase, nil
}

// bound reports whether the purpose fixes the value of the parameter p
// of the step: always for an input (the tester sends the value chosen);
// for an output, only when the value can change where the spec goes
// next, that is when an assignment of the step reads p or another
// transition of the same action leaves the same location (the value
// may choose between them). Any other value the spec allows leads to the
// same state, so the rest of the instance still follows, and fixing it
// would make a conformant SUT that answers another allowed value Inconc.
func bound(s *spec.Model, st Step, p string) bool {
	t := st.Transition
	if st.Input {
		return true
	}
	for _, a := range t.Assign {
		if expr.Mentions(a.Value, expr.ParamIdent, p) {
			return true
		}
	}
	for _, u := range s.Outgoing(t.From) {
		if u != t && u.Action == t.Action {
			return true
		}
	}
	return false
}
