package specfile

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

const ecSpec = `kind: spec
name: sm
variables: {bb: int, a: int}
actions:
  int_bet:    {dir: input,  params: {v: int}}
  int_amount: {dir: input,  params: {v: int}}
  int_cash:   {dir: output, params: {v: int}}
locations: [S1, S2, S3]
initial: {location: S1}
transitions:
  - {name: s_bet,    from: S1, action: int_bet, assign: {bb: v}, to: S2}
  - {name: s_amount, from: S2, action: int_amount, assign: {a: v}, to: S3}
  - {name: s_pay,    from: S3, action: int_cash, guard: v == a, to: S1}
`

// TestConstrainedAcceptPath: the {path, constraint} form reads, writes
// back as it was, and its constraint reads in the spec's scope with
// NAME.p and stepK.p; a name that occurs twice on the path is only
// stepK.
func TestConstrainedAcceptPath(t *testing.T) {
	src := `kind: sympurpose
name: win
spec: sm.yaml
accept:
  - [s_bet, s_amount, s_pay]
  - path: [s_bet, s_amount, s_pay, s_bet, s_amount, s_pay]
    constraint: 0 < step1.v && step4.v <= 100 && s_bet.v > 0 && bb == step4.v
`
	p, err := ParseSymPurpose("win.yaml", []byte(src))
	if err != nil {
		t.Fatal(err) // the constraint is read against the spec, later
	}
	out, err := MarshalSymPurpose(p)
	if err != nil || string(out) != src {
		t.Fatalf("written back (%v):\n%s\nwant\n%s", err, out, src)
	}
	m, err := ParseModel("sm.yaml", []byte(ecSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := p.Accept[1]
	var trans []*spec.Transition
	for _, n := range a.Names {
		for _, tr := range m.Transitions {
			if tr.Name == n {
				trans = append(trans, tr)
			}
		}
	}
	if _, err := a.ParseConstraint(m, trans); err == nil || !strings.Contains(err.Error(), "undeclared name s_bet.v") {
		t.Errorf("s_bet.v where s_bet occurs twice: %v, want undeclared", err)
	}
	a.Constraint = strings.Replace(a.Constraint, " && s_bet.v > 0", "", 1)
	e, err := a.ParseConstraint(m, trans)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	expr.Idents(e, func(id *expr.Ident) { ids = append(ids, id.Name) })
	if got := strings.Join(ids, " "); got != "step1.v step4.v bb step4.v" {
		t.Errorf("identifiers %s", got)
	}
	if k, param, ok := a.StepParam("step4.v"); !ok || k != 3 || param != "v" {
		t.Errorf("StepParam(step4.v) = %d %s %v", k, param, ok)
	}
	if _, _, ok := a.StepParam("bb"); ok {
		t.Error("bb is a variable, not a step's parameter")
	}
	one := spec.AcceptPath{Names: []string{"s_bet", "s_amount"}, Constraint: "s_amount.v == 10 * s_bet.v"}
	if _, err := one.ParseConstraint(m, trans[:2]); err != nil {
		t.Errorf("NAME.p on a path where each name occurs once: %v", err)
	}
}

// TestConstraintErrors: errors in the {path, constraint} form and in
// the constraint, positioned in the purpose's file.
func TestConstraintErrors(t *testing.T) {
	head := "kind: sympurpose\nname: n\nspec: sm.yaml\naccept:\n"
	for _, c := range []struct{ src, want string }{
		{"  - {constraint: x}\n", "f.yaml:5:5: an accept path must be a list"},
		{"  - {path: [s_bet], constraint: ''}\n", "f.yaml:5:33: empty constraint"},
		{"  - {path: [s_bet], why: x}\n", "f.yaml:5:21: unknown key why"},
		{"  - {path: [s_bet], constraint: [x]}\n", "f.yaml:5:33: constraint must be a single value"},
		{"  - {path: [], constraint: x}\n", "f.yaml:5:12: empty accept path"},
	} {
		_, err := ParseSymPurpose("f.yaml", []byte(head+c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.src, err, c.want)
		}
	}
	m, err := ParseModel("sm.yaml", []byte(ecSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, want string }{
		{"s_bet.v + 1", "not a predicate"},
		{"s_pay.v > 0", "undeclared name s_pay.v"},
		{"zz > 0", "undeclared name zz"},
		{"s_bet.v > ", "f.yaml:5:"},
	} {
		p, err := ParseSymPurpose("f.yaml", []byte(head+"  - {path: [s_bet], constraint: '"+c.src+"'}\n"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Accept[0].ParseConstraint(m, m.Transitions[:1])
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "f.yaml:5:") {
			t.Errorf("%q: %v, want f.yaml:5:...: %s", c.src, err, c.want)
		}
	}
}

// FuzzConstraint: any constraint text is read or refused with a
// positioned error, never a panic.
func FuzzConstraint(f *testing.F) {
	for _, s := range []string{"0 < s_bet.v && s_bet.v <= 100", "step1.v == bb", "s_bet.", "step0.v > 0", "a[1]", "s_bet.v.w", "(", "!bb"} {
		f.Add(s)
	}
	m, err := ParseModel("sm.yaml", []byte(ecSpec), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := spec.AcceptPath{Names: []string{"s_bet", "s_amount", "s_pay"}, Constraint: s, ConstraintPos: expr.Pos{File: "f.yaml", Line: 1, Col: 1}}
		if strings.TrimSpace(s) == "" {
			return
		}
		if _, err := a.ParseConstraint(m, m.Transitions); err != nil {
			checkErrors(t, err)
		}
	})
}
