package compose

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func build(t *testing.T, path string) (*spec.System, *System) {
	t.Helper()
	sys, err := specfile.LoadSystem(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(sys)
	if err != nil {
		t.Fatal(err)
	}
	return sys, g
}

// listing is the golden form of a system: its states and transitions.
func listing(g *System) string {
	var b strings.Builder
	b.WriteString(g.String() + "\n")
	b.WriteString("init " + g.Initial.String() + " [" + expr.Format(g.Condition) + "]\n")
	for _, t := range g.Transitions {
		b.WriteString(t.String())
		for _, a := range t.Assign {
			b.WriteString(" " + a.Var + ":=" + expr.Format(a.Value))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./compose -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", file, got, want)
	}
}

// TestRules checks the transition lists of one small system per rule
// of Def 7 against golden files, and what each must show. The complement
// guards of R2 and R4 come simplified by the solver.
func TestRules(t *testing.T) {
	tests := []struct {
		dir  string
		must []string // lines that must appear
		not  []string // substrings that must not
	}{
		// R1: the synchronised output stays an output before hiding,
		// named (A.o, {B.i}); R2 sends it to the environment with the
		// complement guard; R4: B's lone input.
		{"r1", []string{
			"A.o+{B.i}: a0,b0 -c!-> a1,b1 [p > 0 && p == A.x && p < 5]",
			"A.o: a0,b0 -c!-> a1,b0 [p == A.x && p >= 5]",
			"{B.i}: a0,b0 -c?-> a0,b1 [p < 5]",
		}, nil},
		// R2 with two receivers: the output alone needs both guards false.
		{"r2", []string{
			"A.o: a0,b0 -c(τ)-> a0,b0 [p != 1 && p != 2]",
		}, []string{"\n{B.one}:", "\n{B.two}:"}},
		// R3: the joint input (ε, {A.i, B.j}); R4: each lone input.
		{"r3", []string{
			"{A.i,B.j}: a0,b0 -d?-> a1,b1 [p > 0 && p < 3]",
			"{A.i}: a0,b0 -d?-> a1,b0 [p >= 3]",
			"{B.j}: a0,b0 -d?-> a0,b1 [p <= 0]",
		}, nil},
		// R4: A's lone input where B's guard is false; B's input alone
		// where A cannot receive.
		{"r4", []string{
			"{A.i,B.j}: a0,b0 -d?-> a1,b0 [B.y > 0]",
			"{A.i}: a0,b0 -d?-> a1,b0 [B.y <= 0]",
			"{B.j}: a1,b0 -d?-> a1,b0 [B.y > 0]",
		}, nil},
		// R5: the internal transition interleaves with B's output.
		{"r5", []string{
			"A.t: a0,b0 -tick(τ)-> a1,b0 [true] A.x:=A.x + 1",
			"B.o: a0,b0 -out!-> a0,b1 [true]",
			"A.t: a0,b1 -tick(τ)-> a1,b1 [true] A.x:=A.x + 1",
			"B.o: a1,b0 -out!-> a1,b1 [true]",
		}, nil},
		// Hide: outputs on c become internal with the same names, B's
		// input on c is removed.
		{"hide", []string{
			"A.o+{B.i}: a0,b0 -c(τ)-> a1,b1 [p > 0 && p == A.x && p < 5] B.y:=p",
			"A.o: a0,b0 -c(τ)-> a1,b0 [p == A.x && p >= 5]",
		}, []string{"-c?->"}},
		// Pruning: the complement guard of A's lone output is
		// unsatisfiable (B receives every p), so the transition and the
		// state a1,b0 only it reaches are gone.
		{"dead", []string{
			"A.o+{B.i}: a0,b0 -c(τ)-> a1,b1 [p >= A.x + 1 && p > 0]",
			"A.o+{B.j}: a0,b0 -c(τ)-> a1,b1 [p >= A.x + 1 && p <= 0]",
		}, []string{"a1,b0", "\nA.o:"}},
		// Pruning at both levels of a nested hiding: neither A's lone
		// c where B receives every p, nor B's lone d where C receives
		// every q (B.y >= 1 by B's invariant); the lone emissions where
		// the receiver is not ready stay (R2 proper).
		{"dead3", []string{
			"B.send+{C.j}: a0,b1,c0 -d(τ)-> a0,b0,c1 [q == B.y && q >= 1] C.n:=C.n + 1",
			"A.o: a1,b1,c0 -c(τ)-> a0,b1,c0 [p >= 1]",
			"B.send: a0,b1,c1 -d(τ)-> a0,b0,c1 [q == B.y]",
		}, []string{"A.o: a1,b0,", "B.send: a0,b1,c0", "B.send: a1,b1,c0"}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			_, g := build(t, filepath.Join("testdata", tt.dir, "system.yaml"))
			got := listing(g)
			golden(t, filepath.Join("testdata", tt.dir+".golden"), got)
			for _, m := range tt.must {
				if !strings.Contains(got, "\n"+m+"\n") && !strings.Contains(got, "\n"+m+" ") {
					t.Errorf("missing %q in\n%s", m, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("unexpected %q in\n%s", n, got)
				}
			}
		})
	}
}

// TestModelDirections: an unhidden channel that the system both emits
// (R1, R2) and receives from the environment (R4) has no direction in a
// flat spec; hiding it gives one.
func TestModelDirections(t *testing.T) {
	sys, g := build(t, "testdata/r1/system.yaml")
	_, err := g.Model(sys.Name, sys.File)
	if err == nil || !strings.Contains(err.Error(), "testdata/r1/b.yaml:8:5: channel c is used in more than one direction") {
		t.Errorf("r1: got %v, want the direction conflict at B's input", err)
	}
	sys, g = build(t, "testdata/hide/system.yaml")
	m, err := g.Model(sys.Name, sys.File)
	if err != nil {
		t.Fatal(err)
	}
	if a := m.Action("c"); a == nil || a.Dir != spec.Internal {
		t.Errorf("hide: action c is %v, want internal", a)
	}
}

func TestNameRoundTrip(t *testing.T) {
	for _, s := range []string{"SM.s_pay+{Int.i_cash}", "SM.s_pay", "{Int.i_bet}", "A.o+{B.i,C.j}"} {
		n, ok := ParseName(s)
		if !ok || n.String() != s {
			t.Errorf("ParseName(%q) = %v, %v", s, n, ok)
		}
	}
	for _, s := range []string{"", "{}", "A.o{B.i}", "A.o+{B.i", "{B.i,}"} {
		if n, ok := ParseName(s); ok {
			t.Errorf("ParseName(%q) = %v, want an error", s, n)
		}
	}
}

// TestLocationClash: two state tuples that print as the same location
// are reported at the structure.
func TestLocationClash(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.yaml": "kind: spec\nname: a\nvariables: {}\nactions: {go: {dir: input}}\ninitial: {location: 'x'}\ntransitions:\n  - {name: i, from: 'x', action: go, to: 'x,y'}\n",
		"b.yaml": "kind: spec\nname: b\nvariables: {}\nactions: {go: {dir: input}}\ninitial: {location: 'y,z'}\ntransitions:\n  - {name: j, from: 'y,z', action: go, to: 'z'}\n",
		"s.yaml": "kind: system\nname: s\ncomponents: {A: a.yaml, B: b.yaml}\nstructure: A * B\n",
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sys, g := build(t, filepath.Join(dir, "s.yaml"))
	_, err := g.Model(sys.Name, sys.File)
	if err == nil || !strings.Contains(err.Error(), "s.yaml:4:14: two states of A * B print as location \"x,y,z\"") {
		t.Errorf("got %v", err)
	}
}
