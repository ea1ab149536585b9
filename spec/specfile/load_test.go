package specfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// baseSpec is the model the loader tests edit, one line at a time.
const baseSpec = `kind: spec
name: t
types:
  Status: [idle, busy]
variables:
  x: int
  r: real
  s: Status
actions:
  in:  {dir: input, params: {p: int}}
  out: {dir: output}
initial:
  location: A
  condition: x == 0
transitions:
  - {from: A, action: in, guard: "p > 0", assign: {x: p}, to: B}
  - {from: B, action: out, to: A}
`

const basePurpose = `kind: purpose
name: pp
variables: {n: int}
initial: {location: W}
accept: [Acc]
transitions:
  - {from: W, action: in, guard: "p > x", assign: {n: n + 1}, to: Acc}
  - {from: W, action: "*", to: W}
`

const baseTestcase = `kind: testcase
name: tc
variables: {x: int}
actions:
  in:    {dir: send, params: {p: int}}
  out:   {dir: receive}
  delta: {dir: receive}
initial: {location: A, condition: x == 0}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: A, action: in, guard: "p > 0", assign: {x: p}, to: B}
  - {from: B, action: out, to: Pass}
  - {from: B, action: delta, to: Fail}
`

// edit returns src with line n (from 1) replaced by repl, which may
// hold several lines or none ("" deletes the line).
func edit(src string, n int, repl string) string {
	lines := strings.Split(src, "\n")
	if repl == "" {
		return strings.Join(append(lines[:n-1:n-1], lines[n:]...), "\n")
	}
	lines[n-1] = repl
	return strings.Join(lines, "\n")
}

func loadSpec(t *testing.T) *spec.Model {
	t.Helper()
	m, err := ParseModel("s.yaml", []byte(baseSpec), nil)
	if err != nil {
		t.Fatalf("base spec: %v", err)
	}
	return m
}

func TestLoadBaseModels(t *testing.T) {
	sp := loadSpec(t)
	if got := len(sp.Transitions); got != 2 {
		t.Errorf("spec has %d transitions", got)
	}
	if _, err := ParseModel("p.yaml", []byte(basePurpose), sp); err != nil {
		t.Errorf("base purpose: %v", err)
	}
	if _, err := ParseModel("tc.yaml", []byte(baseTestcase), nil); err != nil {
		t.Errorf("base testcase: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		kind spec.ModelKind // which base to edit; the file is named m.yaml
		line int            // the line to replace (0: src is the whole file)
		src  string
		pos  string // LINE:COL of the first error
		msg  string // a substring of its message
	}{
		// YAML and the top level.
		{"bad YAML", spec.SpecKind, 0, "kind: spec\nname: [t\n", "1:1", "bad YAML"},
		{"tab indentation", spec.SpecKind, 6, "\tx: int", "6:1", "bad YAML"},
		{"empty file", spec.SpecKind, 0, "", "1:1", "empty model file"},
		{"not a mapping", spec.SpecKind, 0, "- kind\n- spec\n", "1:1", "a model is a YAML mapping"},
		{"kind not first", spec.SpecKind, 0, "name: t\nkind: spec\n", "1:1", "first key of a model must be kind"},
		{"missing kind", spec.SpecKind, 1, "# no kind", "2:1", "first key of a model must be kind"},
		{"unknown kind", spec.SpecKind, 1, "kind: spek", "1:7", `unknown kind "spek"`},
		{"unknown top-level key", spec.SpecKind, 2, "name: t\nextra: 1", "3:1", "unknown key extra in spec"},
		{"duplicate top-level key", spec.SpecKind, 2, "name: t\nname: u", "3:1", "duplicate key name in spec (first at line 2)"},
		{"missing name", spec.SpecKind, 2, "", "1:1", "missing name"},
		{"bad name", spec.SpecKind, 2, "name: a b", "2:7", `name "a b"`},
		{"missing variables", spec.SpecKind, 5, "vars:", "1:1", "missing variables (write variables: {} for none)"},
		{"missing actions", spec.SpecKind, 9, "acts:", "1:1", "missing actions"},
		{"missing initial", spec.SpecKind, 12, "init:", "1:1", "missing initial"},
		{"initial without location", spec.SpecKind, 13, "  where: A", "13:3", "unknown key where in initial"},
		{"initial empty", spec.SpecKind, 0, baseSpec[:strings.Index(baseSpec, "initial:")] + "initial:\n", "12:9", "initial needs a location"},
		// Declarations.
		{"unknown type", spec.SpecKind, 6, "  x: integer", "6:6", "unknown type integer"},
		{"type not a name", spec.SpecKind, 6, "  x: [int]", "6:6", "a type must be a single value"},
		{"duplicate variable", spec.SpecKind, 7, "  x: real", "7:3", "duplicate key x in variables"},
		{"variable named like a type", spec.SpecKind, 7, "  Status: int", "7:3", "variable Status is already declared as type Status (line 4)"},
		{"variable named like a constant", spec.SpecKind, 7, "  busy: int", "7:3", "already declared as constant busy of type Status"},
		{"variable is a keyword", spec.SpecKind, 7, "  func: int", "7:3", `variable "func" is a keyword`},
		{"variable is reserved", spec.SpecKind, 7, "  true: int", "7:3", `variable "true" is reserved`},
		{"variable not an identifier", spec.SpecKind, 7, "  2x: int", "7:3", "is not an identifier"},
		{"duplicate type", spec.SpecKind, 4, "  Status: [idle, busy]\n  Status: [on]", "5:3", "duplicate key Status in types"},
		{"duplicate enum constant", spec.SpecKind, 4, "  Status: [idle, idle]", "4:18", "constant idle of type Status is already declared as constant idle of type Status (line 4)"},
		{"constant in two types", spec.SpecKind, 4, "  Status: [idle, busy]\n  Mode: [idle]", "5:10", "constant idle of type Mode is already declared"},
		{"empty enum", spec.SpecKind, 4, "  Status: []", "4:11", "type Status has no constants"},
		{"enum without constants", spec.SpecKind, 4, "  Status:", "4:10", "type Status has no constants"},
		{"duplicate action", spec.SpecKind, 11, "  out: {dir: output}\n  out: {dir: input}", "12:3", "duplicate key out in actions"},
		{"unknown dir", spec.SpecKind, 11, "  out: {dir: out}", "11:14", `unknown dir "out"`},
		{"missing dir", spec.SpecKind, 11, "  out: {}", "11:3", "action out has no dir"},
		{"send in a spec", spec.SpecKind, 11, "  out: {dir: send}", "11:14", `unknown dir "send" (want input, output or internal)`},
		{"unknown key in action", spec.SpecKind, 11, "  out: {dir: output, param: {}}", "11:22", "unknown key param in action out"},
		{"parameter shadows a variable", spec.SpecKind, 10, "  in:  {dir: input, params: {x: int}}", "10:30", "parameter x of action in shadows variable x"},
		{"parameter shadows a constant", spec.SpecKind, 10, "  in:  {dir: input, params: {idle: int}}", "10:30", "parameter idle of action in shadows constant idle"},
		{"duplicate parameter", spec.SpecKind, 10, "  in:  {dir: input, params: {p: int, p: real}}", "10:38", "duplicate key p in params of in"},
		{"parameter of unknown type", spec.SpecKind, 10, "  in:  {dir: input, params: {p: Color}}", "10:33", "unknown type Color"},
		{"delta declared in a spec", spec.SpecKind, 11, "  delta: {dir: output}", "11:3", "delta is reserved for quiescence"},
		{"delta used in a spec", spec.SpecKind, 17, "  - {from: B, action: delta, to: A}", "17:23", "delta is reserved for quiescence"},
		// Initial condition.
		{"initial condition not bool", spec.SpecKind, 14, "  condition: x + 1", "14:14", "initial condition x + 1 has type int, want bool"},
		{"initial condition reads a parameter", spec.SpecKind, 14, "  condition: p == 0", "14:14", "undeclared name p"},
		{"initial condition syntax", spec.SpecKind, 14, "  condition: x ==", "14:18", "syntax error"},
		{"initial location empty", spec.SpecKind, 13, `  location: " "`, "13:3", "initial needs a location"},
		// Transitions.
		{"unknown key in transition", spec.SpecKind, 17, "  - {from: B, action: out, to: A, foo: 1}", "17:35", "unknown key foo in a transition"},
		{"transition without to", spec.SpecKind, 17, "  - {from: B, action: out}", "17:5", "transition without to"},
		{"transition not a mapping", spec.SpecKind, 17, "  - B out A", "17:5", "a transition must be a mapping"},
		{"transitions not a list", spec.SpecKind, 0, baseSpec[:strings.Index(baseSpec, "transitions:")] + "transitions: {}\n", "15:14", "transitions must be a list"},
		{"unknown action", spec.SpecKind, 17, "  - {from: B, action: outt, to: A}", "17:23", "unknown action outt"},
		{"star in a spec", spec.SpecKind, 17, `  - {from: B, action: "*", to: A}`, "17:23", "unknown action *"},
		{"undeclared name in quoted guard", spec.SpecKind, 16, `  - {from: A, action: in, guard: "p > 0 && q < 1", assign: {x: p}, to: B}`, "16:44", "undeclared name q"},
		{"undeclared name in single-quoted guard", spec.SpecKind, 16, `  - {from: A, action: in, guard: 'p > zz', assign: {x: p}, to: B}`, "16:39", "undeclared name zz"},
		{"undeclared name in plain guard", spec.SpecKind, 16, `  - {from: A, action: in, guard: p > zz, assign: {x: p}, to: B}`, "16:38", "undeclared name zz"},
		{"undeclared name in block guard", spec.SpecKind, 16, "  - from: A\n    action: in\n    guard: |\n      p > 0 &&\n      zz < 1\n    to: B", "20:1", "undeclared name zz"},
		{"parameter of another action", spec.SpecKind, 17, `  - {from: B, action: out, guard: "p > 0", to: A}`, "17:36", "undeclared name p"},
		{"int plus real in guard", spec.SpecKind, 16, `  - {from: A, action: in, guard: "x + r > 0", to: B}`, "16:37", "mismatched types int and real in x + r"},
		{"modulo on real", spec.SpecKind, 16, `  - {from: A, action: in, guard: "r % 2 == 0", to: B}`, "16:37", "% is defined on int only"},
		{"ordered enum comparison", spec.SpecKind, 16, `  - {from: A, action: in, guard: "s < busy", to: B}`, "16:37", "operator < not defined"},
		{"guard not bool", spec.SpecKind, 16, `  - {from: A, action: in, guard: "p + 1", to: B}`, "16:34", "guard p + 1 has type int, want bool"},
		{"empty guard", spec.SpecKind, 16, `  - {from: A, action: in, guard: "", to: B}`, "16:34", "guard is empty"},
		{"syntax error in guard", spec.SpecKind, 16, `  - {from: A, action: in, guard: "p >> ", to: B}`, "16:40", "syntax error"},
		{"assignment to undeclared variable", spec.SpecKind, 16, `  - {from: A, action: in, assign: {z: p}, to: B}`, "16:36", "assignment to undeclared variable z"},
		{"assignment to a parameter", spec.SpecKind, 16, `  - {from: A, action: in, assign: {p: 1}, to: B}`, "16:36", "assignment to undeclared variable p"},
		{"assignment type mismatch", spec.SpecKind, 16, `  - {from: A, action: in, assign: {s: p}, to: B}`, "16:39", "cannot assign p (type int) to s (type Status)"},
		{"int variable to real", spec.SpecKind, 16, `  - {from: A, action: in, assign: {r: x}, to: B}`, "16:39", "cannot assign x (type int) to r (type real)"},
		{"duplicate assignment", spec.SpecKind, 16, `  - {from: A, action: in, assign: {x: p, x: 1}, to: B}`, "16:42", "duplicate key x in assign"},
		{"undeclared name in assignment", spec.SpecKind, 16, `  - {from: A, action: in, assign: {x: "p + w"}, to: B}`, "16:44", "undeclared name w"},
		{"duplicate location", spec.SpecKind, 15, "locations: [A, B, A]\ntransitions:", "15:19", "duplicate location A"},
		// Purposes.
		{"purpose assigns a spec variable", spec.PurposeKind, 7, `  - {from: W, action: in, assign: {x: p}, to: Acc}`, "7:36", "a purpose cannot assign the spec's variable x"},
		{"purpose declares actions", spec.PurposeKind, 3, "variables: {n: int}\nactions: {}", "4:1", "a purpose uses its spec's actions and declares none"},
		{"purpose variable clashes with spec variable", spec.PurposeKind, 3, "variables: {x: int}", "3:13", "variable x is already declared as a variable of the spec"},
		{"purpose variable clashes with parameter", spec.PurposeKind, 3, "variables: {p: int}", "3:13", "already declared as a parameter of the spec's action in"},
		{"purpose unknown action", spec.PurposeKind, 8, `  - {from: W, action: go, to: W}`, "8:23", "unknown action go"},
		{"purpose star reads a parameter", spec.PurposeKind, 8, `  - {from: W, action: "*", guard: "p > 0", to: W}`, "8:36", "undeclared name p"},
		{"purpose accept not a location", spec.PurposeKind, 5, "accept: [Acc, Nowhere]", "5:15", "accept location Nowhere is not a location"},
		{"purpose without accept", spec.PurposeKind, 5, "", "1:1", "missing accept"},
		{"purpose unknown key", spec.PurposeKind, 5, "accept: [Acc]\nverdicts: {}", "6:1", "unknown key verdicts in purpose"},
		// Testcases.
		{"verdict location with outgoing transition", spec.TestcaseKind, 14, "  - {from: B, action: delta, to: Fail}\n  - {from: Pass, action: in, to: A}", "15:5", "verdict location Pass (pass) has an outgoing transition"},
		{"location with two verdicts", spec.TestcaseKind, 9, "verdicts: {pass: [Pass], fail: [Fail, Pass]}", "9:39", "location Pass has two verdicts"},
		{"testcase input dir", spec.TestcaseKind, 5, "  in:    {dir: input, params: {p: int}}", "5:16", `unknown dir "input" (want send or receive)`},
		{"testcase delta with parameters", spec.TestcaseKind, 7, "  delta: {dir: receive, params: {d: int}}", "7:3", "delta is quiescence: a receive without parameters"},
		{"testcase delta sent", spec.TestcaseKind, 7, "  delta: {dir: send}", "7:3", "delta is quiescence"},
	}
	sp := loadSpec(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := map[spec.ModelKind]string{spec.SpecKind: baseSpec, spec.PurposeKind: basePurpose, spec.TestcaseKind: baseTestcase}[tt.kind]
			src := tt.src
			if tt.line > 0 {
				src = edit(base, tt.line, tt.src)
			}
			var with *spec.Model
			if tt.kind == spec.PurposeKind {
				with = sp
			}
			_, err := ParseModel("m.yaml", []byte(src), with)
			if err == nil {
				t.Fatalf("no error, want %s: %s\n%s", tt.pos, tt.msg, src)
			}
			list, ok := err.(expr.ErrorList)
			if !ok {
				t.Fatalf("error %T, want ErrorList: %v", err, err)
			}
			got := list[0].Error()
			if want := "m.yaml:" + tt.pos + ": "; !strings.HasPrefix(got, want) || !strings.Contains(got, tt.msg) {
				t.Errorf("got  %s\nwant %s...%s\n(all: %v)", got, want, tt.msg, err)
			}
		})
	}
}

func TestLoadPurposeAlone(t *testing.T) {
	_, err := ParseModel("p.yaml", []byte(basePurpose), nil)
	if err == nil || !strings.Contains(err.Error(), "p.yaml:1:1: a purpose is read together with its spec") {
		t.Errorf("got %v", err)
	}
	tc, err := ParseModel("tc.yaml", []byte(baseTestcase), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseModel("p.yaml", []byte(basePurpose), tc); err == nil || !strings.Contains(err.Error(), "must be a spec, not a testcase") {
		t.Errorf("purpose with a testcase for spec: %v", err)
	}
}

func TestLoadReportsAllErrors(t *testing.T) {
	src := edit(edit(baseSpec, 17, `  - {from: B, action: outt, to: A}`), 6, "  x: integer")
	_, err := ParseModel("m.yaml", []byte(src), nil)
	list, _ := err.(expr.ErrorList)
	if len(list) < 2 || list[0].Pos.Line != 6 || list[len(list)-1].Pos.Line != 17 {
		t.Errorf("want the errors of lines 6 and 17 in order, got %v", err)
	}
}

func TestLoadPromotesIntConstantToReal(t *testing.T) {
	src := edit(baseSpec, 16, `  - {from: A, action: in, guard: "r < 2", assign: {r: 1, x: p}, to: B}`)
	m, err := ParseModel("m.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := m.Transitions[0]
	if expr.Format(tr.Guard) != "r < 2.0" || tr.Assign[0].Value.Type() != expr.RealType {
		t.Errorf("guard %s, assignment %s of type %s", expr.Format(tr.Guard), expr.Format(tr.Assign[0].Value), tr.Assign[0].Value.Type())
	}
}

func TestPeekKind(t *testing.T) {
	for src, want := range map[string]spec.ModelKind{baseSpec: spec.SpecKind, basePurpose: spec.PurposeKind, baseTestcase: spec.TestcaseKind} {
		if k, err := PeekKind("m.yaml", []byte(src)); err != nil || k != want {
			t.Errorf("PeekKind = %v, %v; want %v", k, err, want)
		}
	}
	if _, err := PeekKind("m.yaml", []byte("name: x\n")); err == nil {
		t.Error("PeekKind without kind succeeded")
	}
}

// exampleFiles returns the model files under examples/*/.
func exampleFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Only the ioSTS: not the tables files, systems and symbolic purposes.
	var models []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ Kind string }
		if yaml.Unmarshal(data, &head) == nil && head.Kind == "tables" {
			continue
		}
		if k, err := PeekKind(f, data); err == nil && k != spec.SpecKind && k != spec.PurposeKind && k != spec.TestcaseKind {
			continue
		}
		models = append(models, f)
	}
	return models
}

// loadExample loads an example file; a purpose is read with the spec of
// its directory (spec.yaml, or the only spec there).
func loadExample(t *testing.T, path string) (*spec.Model, []byte, *spec.Model) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kind, err := PeekKind(path, data)
	if err != nil {
		t.Fatalf("%v", err)
	}
	var sp *spec.Model
	if kind == spec.PurposeKind {
		sp = exampleSpec(t, filepath.Dir(path))
		if sp == nil {
			t.Skipf("%s: no spec in its directory", path)
		}
	}
	m, err := ParseModel(path, data, sp)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return m, data, sp
}

func exampleSpec(t *testing.T, dir string) *spec.Model {
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	var specs []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if k, err := PeekKind(f, data); err == nil && k == spec.SpecKind {
			if filepath.Base(f) == "spec.yaml" {
				specs = []string{f}
				break
			}
			specs = append(specs, f)
		}
	}
	if len(specs) != 1 {
		return nil
	}
	m, err := LoadFile(specs[0], nil)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return m
}

// TestRoundTrip checks for every example that Marshal writes what
// ParseModel reads back as the same model.
func TestRoundTrip(t *testing.T) {
	files := exampleFiles(t)
	if len(files) == 0 {
		t.Skip("no examples")
	}
	for _, path := range files {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			m, _, sp := loadExample(t, path)
			writeRead(t, path, m, sp)
		})
	}
}

// sameExpr compares expressions of two models. Equal would not do: the
// enumerated types of two loads are different *Enum values.
func sameExpr(a, b expr.Expr) bool {
	return expr.Format(a) == expr.Format(b) && a.Type().String() == b.Type().String()
}

// sameModel compares two models structurally, positions aside.
func sameModel(t *testing.T, a, b *spec.Model) {
	t.Helper()
	if a.Kind != b.Kind || a.Name != b.Name {
		t.Errorf("kind/name %v %s, %v %s", a.Kind, a.Name, b.Kind, b.Name)
	}
	if !sameStrings(a.Locations, b.Locations) || a.Initial.Location != b.Initial.Location ||
		!sameExpr(a.Initial.Condition, b.Initial.Condition) {
		t.Errorf("locations or initial differ: %v %v", a.Locations, b.Locations)
	}
	if !sameStrings(a.Accept, b.Accept) || !sameStrings(a.Verdicts.Pass, b.Verdicts.Pass) ||
		!sameStrings(a.Verdicts.Fail, b.Verdicts.Fail) || !sameStrings(a.Verdicts.Inconc, b.Verdicts.Inconc) {
		t.Errorf("accept or verdicts differ")
	}
	if len(a.Variables) != len(b.Variables) || len(a.Actions) != len(b.Actions) || len(a.Enums) != len(b.Enums) {
		t.Fatalf("declarations differ")
	}
	for i, v := range a.Variables {
		if w := b.Variables[i]; v.Name != w.Name || v.Type.String() != w.Type.String() {
			t.Errorf("variable %d: %s %s, %s %s", i, v.Name, v.Type, w.Name, w.Type)
		}
	}
	for i, x := range a.Actions {
		y := b.Actions[i]
		if x.Name != y.Name || x.Dir != y.Dir || len(x.Params) != len(y.Params) {
			t.Errorf("action %d: %s, %s", i, x.Name, y.Name)
		}
	}
	if len(a.Transitions) != len(b.Transitions) {
		t.Fatalf("%d transitions, %d after the round trip", len(a.Transitions), len(b.Transitions))
	}
	for i, x := range a.Transitions {
		y := b.Transitions[i]
		if x.Name != y.Name || x.From != y.From || x.Action != y.Action || x.To != y.To || !sameExpr(x.Guard, y.Guard) || len(x.Assign) != len(y.Assign) {
			t.Errorf("transition %d: %s [%s], %s [%s]", i, x.Label(), expr.Format(x.Guard), y.Label(), expr.Format(y.Guard))
			continue
		}
		for j := range x.Assign {
			if x.Assign[j].Var != y.Assign[j].Var || !sameExpr(x.Assign[j].Value, y.Assign[j].Value) {
				t.Errorf("transition %d, assignment %d differs", i, j)
			}
		}
	}
}

// TestTestcaseGuardsLiteral: a spec's guard gets the implicit bounds of
// s[0]; a test case's guard is read as written (stg writes every bound
// it needs), so that a complement that negates a bound keeps its
// meaning and write/load/write is the identity.
func TestTestcaseGuardsLiteral(t *testing.T) {
	const body = `
variables: {}
actions:
  hi: {dir: %s, params: {s: string}}
initial: {location: A}
%stransitions:
  - {from: A, action: hi, guard: 's[0] == "a" || 0 >= len(s)', to: %s}
`
	sp, err := ParseModel("s.yaml", []byte(fmt.Sprintf("kind: spec\nname: s"+body, "input", "", "A")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := expr.Format(sp.Transitions[0].Guard), `(s[0] == "a" || 0 >= len(s)) && 0 < len(s)`; got != want {
		t.Errorf("spec guard %s, want %s", got, want)
	}
	tc, err := ParseModel("t.yaml", []byte(fmt.Sprintf("kind: testcase\nname: t"+body,
		"receive", "verdicts: {pass: [P], fail: [F], inconc: [I]}\nlocations: [A, P, F, I]\n", "P")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := expr.Format(tc.Transitions[0].Guard), `s[0] == "a" || 0 >= len(s)`; got != want {
		t.Errorf("testcase guard %s, want %s", got, want)
	}
	out, err := Marshal(tc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("t.yaml", out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Marshal(back); string(again) != string(out) {
		t.Errorf("write/load/write differs:\n%s\n---\n%s", out, again)
	}
}
