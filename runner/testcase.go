package runner

import (
	"fmt"
	"slices"

	"github.com/stg-tool/stg/spec"
)

// Testcase is a test case as Go data: what stg generate --format go
// embeds in a _test.go file, so that the test reads no file at run time.
// Expressions are written in the model language (FORMAT.md §2). The
// fields mirror the YAML format of FORMAT.md §1.
type Testcase struct {
	Name        string
	Types       []EnumDecl // enumerated types
	Variables   []Decl
	Actions     []ActionDecl
	Initial     string // the initial location
	Condition   string // the initial condition; "" means true
	Pass        []string
	Fail        []string
	Inconc      []string
	Locations   []string // optional: isolated locations, display order
	Transitions []TransitionDecl
}

// Decl declares a variable or a parameter: its name and type.
type Decl struct {
	Name, Type string
}

// EnumDecl declares an enumerated type.
type EnumDecl struct {
	Name   string
	Values []string
}

// ActionDecl declares an action; Dir is "send" or "receive".
type ActionDecl struct {
	Name, Dir string
	Params    []Decl
}

// TransitionDecl is a transition; an empty Guard means true.
type TransitionDecl struct {
	Name   string
	From   string
	Action string
	Guard  string
	Assign []Assignment
	To     string
}

// Assignment is one of a transition's simultaneous assignments.
type Assignment struct {
	Var, Value string
}

// FromModel converts a test case model to Go data.
func FromModel(m *spec.Model) (Testcase, error) {
	if m.Kind != spec.TestcaseKind {
		return Testcase{}, fmt.Errorf("%s is a %s, not a testcase", m.Name, m.Kind)
	}
	if len(m.Funcs) > 0 {
		return Testcase{}, fmt.Errorf("test case %s declares external functions, which the runner cannot evaluate", m.Name)
	}
	tc := Testcase{
		Name:    m.Name,
		Initial: m.Initial.Location,
		Pass:    m.Verdicts.Pass,
		Fail:    m.Verdicts.Fail,
		Inconc:  m.Verdicts.Inconc,
	}
	for _, e := range m.Enums {
		tc.Types = append(tc.Types, EnumDecl{Name: e.Name, Values: e.Values})
	}
	for _, v := range m.Variables {
		tc.Variables = append(tc.Variables, Decl{v.Name, v.Type.String()})
	}
	for _, a := range m.Actions {
		ad := ActionDecl{Name: a.Name, Dir: a.Dir.String()}
		for _, p := range a.Params {
			ad.Params = append(ad.Params, Decl{p.Name, p.Type.String()})
		}
		tc.Actions = append(tc.Actions, ad)
	}
	if c := m.Initial.Condition; c != nil && !spec.IsTrue(c) {
		tc.Condition = spec.Format(c)
	}
	for _, t := range m.Transitions {
		td := TransitionDecl{Name: t.Name, From: t.From, Action: t.Action, To: t.To}
		if t.Guard != nil && !spec.IsTrue(t.Guard) {
			td.Guard = spec.Format(t.Guard)
		}
		for _, as := range t.Assign {
			td.Assign = append(td.Assign, Assignment{as.Var, spec.Format(as.Value)})
		}
		tc.Transitions = append(tc.Transitions, td)
	}
	// Write the locations only when Model would not derive them.
	if !slices.Equal(tc.derivedLocations(), m.Locations) {
		tc.Locations = m.Locations
	}
	return tc, nil
}

// derivedLocations returns the locations in order of first appearance in
// Locations, Initial, the transitions and the verdicts.
func (tc Testcase) derivedLocations() []string {
	var locs []string
	seen := map[string]bool{}
	add := func(l string) {
		if l != "" && !seen[l] {
			seen[l] = true
			locs = append(locs, l)
		}
	}
	for _, l := range tc.Locations {
		add(l)
	}
	add(tc.Initial)
	for _, t := range tc.Transitions {
		add(t.From)
		add(t.To)
	}
	for _, ls := range [][]string{tc.Pass, tc.Fail, tc.Inconc} {
		for _, l := range ls {
			add(l)
		}
	}
	return locs
}

// Model converts tc to a test case model, parsing and type-checking its
// expressions. Errors name the offending item.
func (tc Testcase) Model() (*spec.Model, error) {
	var errs spec.ErrorList
	pos := func(what string) spec.Pos { return spec.Pos{File: "testcase " + tc.Name + ", " + what} }
	m := &spec.Model{Kind: spec.TestcaseKind, Name: tc.Name}
	for _, e := range tc.Types {
		m.Enums = append(m.Enums, &spec.Enum{Name: e.Name, Values: e.Values})
	}
	typeOf := func(name, what string) spec.Type {
		switch name {
		case "int":
			return spec.IntType
		case "real":
			return spec.RealType
		case "bool":
			return spec.BoolType
		}
		if e := m.Enum(name); e != nil {
			return spec.EnumType(e)
		}
		errs.Add(pos(what), "unknown type %q", name)
		return spec.IntType
	}
	for _, v := range tc.Variables {
		m.Variables = append(m.Variables, &spec.Variable{Name: v.Name, Type: typeOf(v.Type, "variable "+v.Name)})
	}
	for _, ad := range tc.Actions {
		a := &spec.Action{Name: ad.Name}
		switch ad.Dir {
		case "send":
			a.Dir = spec.Send
		case "receive":
			a.Dir = spec.Receive
		default:
			errs.Add(pos("action "+ad.Name), "unknown dir %q (want send or receive)", ad.Dir)
		}
		for _, p := range ad.Params {
			a.Params = append(a.Params, &spec.Param{Name: p.Name, Type: typeOf(p.Type, "parameter "+p.Name+" of "+ad.Name)})
		}
		m.Actions = append(m.Actions, a)
	}
	m.Initial = spec.Initial{Location: tc.Initial, Condition: spec.True()}
	if tc.Initial == "" {
		errs.Add(pos("initial"), "no initial location")
	}
	if tc.Condition != "" {
		e, err := spec.ParseBool(tc.Condition, pos("initial condition"), m.ParamScope(nil))
		if err != nil {
			errs = append(errs, err.(spec.ErrorList)...)
		} else {
			m.Initial.Condition = e
		}
	}
	for i, td := range tc.Transitions {
		what := fmt.Sprintf("transition %d (%s -%s-> %s)", i+1, td.From, td.Action, td.To)
		t := &spec.Transition{Name: td.Name, From: td.From, Action: td.Action, To: td.To, Guard: spec.True(), Pos: pos(what)}
		a := m.Action(td.Action)
		if a == nil {
			errs.Add(pos(what), "unknown action %s", td.Action)
			continue
		}
		scope := m.ParamScope(a)
		if td.Guard != "" {
			e, err := spec.ParseBool(td.Guard, pos(what+" guard"), scope)
			if err != nil {
				errs = append(errs, err.(spec.ErrorList)...)
				continue
			}
			t.Guard = e
		}
		for _, as := range td.Assign {
			v := m.Variable(as.Var)
			if v == nil {
				errs.Add(pos(what), "assignment to undeclared variable %s", as.Var)
				continue
			}
			e, err := spec.Parse(as.Value, pos(what+" value of "+as.Var), scope)
			if err != nil {
				errs = append(errs, err.(spec.ErrorList)...)
				continue
			}
			if e.Type() != v.Type {
				errs.Add(pos(what), "cannot assign %s (type %s) to %s (type %s)", as.Value, e.Type(), as.Var, v.Type)
				continue
			}
			t.Assign = append(t.Assign, spec.Assignment{Var: as.Var, Value: e, Pos: pos(what)})
		}
		m.Transitions = append(m.Transitions, t)
	}
	m.Verdicts = spec.Verdicts{Pass: tc.Pass, Fail: tc.Fail, Inconc: tc.Inconc}
	m.Locations = tc.derivedLocations()
	for _, t := range m.Transitions {
		if v := m.Verdict(t.From); v != "" {
			errs.Add(t.Pos, "verdict location %s (%s) has an outgoing transition", t.From, v)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return m, nil
}
