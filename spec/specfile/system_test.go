package specfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

const sysA = `kind: spec
name: a
variables: {x: int}
actions:
  c: {dir: output, params: {p: int}}
  t: {dir: internal}
initial: {location: a0}
transitions:
  - {name: o, from: a0, action: c, guard: "p == x", to: a1}
  - {name: tau, from: a1, action: t, to: a0}
`

const sysB = `kind: spec
name: b
variables: {y: int}
actions:
  c: {dir: input, params: {q: int}}
  d: {dir: output}
initial: {location: b0}
transitions:
  - {name: i, from: b0, action: c, assign: {y: q}, to: b1}
  - {name: out, from: b1, action: d, to: b0}
`

// writeFiles writes name -> content into a new directory.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestParseSystem(t *testing.T) {
	for _, structure := range []string{
		`"Hide([c], A * B)"`,
		`{hide: [c], of: {compose: [A, B]}}`,
		`"Hide([c], (A ⊗ B))"`,
	} {
		dir := writeFiles(t, map[string]string{"a.yaml": sysA, "b.yaml": sysB,
			"s.yaml": "kind: system\nname: s\ncomponents: {A: a.yaml, B: b.yaml}\nstructure: " + structure + "\n"})
		sys, err := LoadSystem(filepath.Join(dir, "s.yaml"))
		if err != nil {
			t.Fatalf("%s: %v", structure, err)
		}
		if got := sys.Structure.String(); got != "Hide([c], A * B)" {
			t.Errorf("%s: structure %q", structure, got)
		}
		if sys.Name != "s" || len(sys.Components) != 2 || sys.Component("B").Model.Name != "b" {
			t.Errorf("%s: %+v", structure, sys)
		}
		if got := strings.Join(sys.Structure.Leaves(), ","); got != "A,B" {
			t.Errorf("leaves %s", got)
		}
	}
}

// TestSystemErrors: every problem of a system file is reported at its
// position, in the system file or in the component's.
func TestSystemErrors(t *testing.T) {
	bOut := strings.Replace(sysB, "c: {dir: input", "c: {dir: output", 1)
	bBool := strings.Replace(strings.Replace(sysB, "params: {q: int}", "params: {q: bool}", 1), "assign: {y: q}, ", "", 1)
	bDup := strings.Replace(sysB, "name: out,", "name: o,", 1)
	bTau := strings.Replace(sysB, "d: {dir: output}", "t: {dir: input}", 1)
	bTau = strings.Replace(bTau, "action: d", "action: t", 1)
	bRange := strings.Replace(sysB, "params: {q: int}", "params: {q: {type: int, range: [0, 9]}}", 1)
	tests := []struct {
		name, b, head, structure, want string
	}{
		{"unknown component", sysB, "", `"A *  X"`, "s.yaml:4:18: unknown component X (components: A, B)"},
		{"unknown hidden", sysB, "", `"Hide([zz], A * B)"`, "s.yaml:4:13: unknown hidden channel zz: not a channel of A * B"},
		{"hidden internal", sysB, "", `"Hide([t], A * B)"`, "unknown hidden channel t"},
		{"both outputs", bOut, "", `"A * B"`, "b.yaml:5:3: channel c is an output of both A and B"},
		{"types", bBool, "", `"A * B"`, "b.yaml:5:3: channel c of B has parameters (q: bool), which do not fit (p: int) in A"},
		{"ranges", bRange, "", `"A * B"`, "b.yaml:5:3: channel c of B has parameters (q: int in [0, 9]), which do not fit (p: int) in A"},
		{"duplicate name", bDup, "", `"A * B"`, "b.yaml:10:5: transition name o of component B is already used by A"},
		{"internal and channel", bTau, "", `"A * B"`, "b.yaml:6:3: action t is internal in one of A and B and a channel in the other"},
		{"syntax", sysB, "", `"Hide([c], A * )"`, "s.yaml:4:27: unexpected \")\" in the structure"},
		{"syntax end", sysB, "", `"A * B B"`, "s.yaml:4:19: unexpected \"B\" after the structure"},
		{"twice", sysB, "", `"A * (B * A)"`, "s.yaml:4:22: component A is used twice"},
		{"unused", sysB, "", `A`, "s.yaml:4:12: component B is not used in the structure"},
		{"mapping", sysB, "", `{hide: [c]}`, "s.yaml:4:12: a structure mapping is {compose: [A, B, ...]} or {hide: [channels], of: STRUCTURE}"},
		{"missing file", sysB, "components: {A: a.yaml, B: nofile.yaml}\n", `"A * B"`, "s.yaml:3:28: component B: cannot read nofile.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head := tt.head
			if head == "" {
				head = "components: {A: a.yaml, B: b.yaml}\n"
			}
			dir := writeFiles(t, map[string]string{"a.yaml": sysA, "b.yaml": tt.b,
				"s.yaml": "kind: system\nname: s\n" + head + "structure: " + tt.structure + "\n"})
			_, err := LoadSystem(filepath.Join(dir, "s.yaml"))
			if err == nil {
				t.Fatalf("no error, want %s", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("error without the file: %v", err)
			}
		})
	}
}

func TestSystemKind(t *testing.T) {
	src := []byte("kind: system\nname: s\n")
	if k, err := PeekKind("s.yaml", src); err != nil || k != spec.SystemKind {
		t.Errorf("PeekKind = %v, %v", k, err)
	}
	if _, err := ParseModel("s.yaml", src, nil); err == nil || !strings.Contains(err.Error(), "s.yaml:1:7: a system is not an ioSTS") {
		t.Errorf("ParseModel: %v", err)
	}
	if _, err := ParseSystem("m.yaml", []byte(sysA)); err == nil || !strings.Contains(err.Error(), "m.yaml:1:7: this is a spec, not a system") {
		t.Errorf("ParseSystem of a spec: %v", err)
	}
}

// TestQualifiedNames: Int.b is read as the variable "Int.b" where the
// scope has qualified variables (a composed system), and stays an error
// elsewhere; a flat spec declares them.
func TestQualifiedNames(t *testing.T) {
	s := &expr.Scope{Vars: map[string]expr.Type{"Int.b": expr.IntType, "x": expr.IntType}}
	e, err := expr.Parse("Int.b + x > 1", expr.Pos{File: "f", Line: 1, Col: 1}, s)
	if err != nil || expr.Format(e) != "Int.b + x > 1" || !expr.Mentions(e, expr.VarIdent, "Int.b") {
		t.Errorf("Parse: %v, %v", e, err)
	}
	if _, err := expr.Parse("Int.c", expr.Pos{File: "f", Line: 1, Col: 1}, s); err == nil || !strings.Contains(err.Error(), "f:1:1: undeclared name Int.c") {
		t.Errorf("undeclared: %v", err)
	}
	if _, err := expr.Parse("a.b", expr.Pos{File: "f", Line: 1, Col: 1}, &expr.Scope{Vars: map[string]expr.Type{"x": expr.IntType}}); err == nil || !strings.Contains(err.Error(), "a selector (x.y) is not allowed") {
		t.Errorf("selector in a flat spec: %v", err)
	}
	flat := "kind: spec\nname: f\nvariables: {Int.b: int, SM.w: bool}\nactions: {a: {dir: input, params: {v: int}}}\ninitial: {location: q}\ntransitions:\n  - {from: q, action: a, guard: \"SM.w\", assign: {Int.b: v + Int.b}, to: q}\n"
	m, err := ParseModel("f.yaml", []byte(flat), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Variable("Int.b") == nil || expr.Format(m.Transitions[0].Assign[0].Value) != "v + Int.b" {
		t.Errorf("flat: %v", m.Transitions[0])
	}
	bad := strings.Replace(flat, "Int.b: int,", "Int.b.c: int, 1x.y: int,", 1)
	if _, err := ParseModel("f.yaml", []byte(bad), nil); err == nil || !strings.Contains(err.Error(), "f.yaml:3:27: variable \"1x\" is not an identifier") {
		t.Errorf("bad qualified names: %v", err)
	}
}

func FuzzParseSystem(f *testing.F) {
	dir := writeFiles(f, map[string]string{"a.yaml": sysA, "b.yaml": sysB})
	f.Add("kind: system\nname: s\ncomponents: {A: a.yaml, B: b.yaml}\nstructure: \"Hide([c], A * B)\"\n")
	f.Add("kind: system\nname: s\ncomponents: {A: a.yaml, B: b.yaml}\nstructure: {hide: [c], of: {compose: [A, B]}}\n")
	f.Add("kind: system\nname: s\ncomponents: {A: a.yaml}\nstructure: \"((A\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		sys, err := ParseSystem(filepath.Join(dir, "s.yaml"), []byte(src))
		if err == nil && (sys.Structure == nil || len(sys.Components) == 0) {
			t.Fatalf("accepted without structure or components: %q", src)
		}
	})
}
