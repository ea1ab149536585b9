package online

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// newTester returns a tester of the purpose whose accept paths are
// given (each as "a b c"), on the spec testdata/atm-paper.yaml.
func newTester(t testing.TB, accept ...string) *Tester {
	t.Helper()
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(z.Close)
	m, err := specfile.LoadFile("testdata/atm-paper.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := &spec.SymPurpose{Name: "test", Spec: "atm-paper.yaml"}
	for _, a := range accept {
		sp.Accept = append(sp.Accept, acceptPath(a))
	}
	return testerOf(t, z, m, sp)
}

// acceptPath reads "deposit ask cash", or with an external constraint
// "deposit ask cash | deposit.v >= 1000".
func acceptPath(a string) spec.AcceptPath {
	names, con, _ := strings.Cut(a, "|")
	return spec.AcceptPath{Names: strings.Fields(names), Constraint: strings.TrimSpace(con)}
}

func testerOf(t testing.TB, z *solver.Context, m *spec.Model, sp *spec.SymPurpose) *Tester {
	t.Helper()
	x, err := symex.NewExecutor(z, m, symex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tp, err := NewPurpose(x, sp)
	if err != nil {
		t.Fatal(err)
	}
	return NewTester(z, tp)
}

// events reads a trace written as "deposit?250 amount?50 cash!50
// delta!" (one parameter, named v or msg, per action).
func events(t testing.TB, tr *Tester, s string) []Event {
	t.Helper()
	m := tr.Purpose().Executor().Spec()
	var evs []Event
	for _, w := range strings.Fields(s) {
		i := strings.IndexAny(w, "?!")
		te := specfile.TraceEvent{Send: w[i] == '?', Action: w[:i]}
		if arg := w[i+1:]; arg != "" {
			a := m.Action(te.Action)
			te.Args = map[string]any{a.Params[0].Name: arg}
			if a.Params[0].Type == expr.IntType {
				te.Args[a.Params[0].Name] = json.Number(arg)
			}
		}
		ev, err := EventOf(m, te)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// TestExample4 is Example 4 of the paper (SEEDS.md §1(d) item 4): with
// the purpose whose only accept node is η11 = [deposit, ask, cash], the
// trace deposit?250 amount?50 cash!50 applies rules 6, 6 and 5, and
// gives WeakPass: Next holds η11 and η12 = [deposit, ask, cashFee],
// NextPass η11 only (m0 is free: m0 + 250 >= 1000 and < 1000 are both
// possible). The printed steps are compared with a golden file.
func TestExample4(t *testing.T) {
	tr := newTester(t, "deposit ask cash")
	var out bytes.Buffer
	steps, err := tr.Replay(events(t, tr, "deposit?250 amount?50 cash!50"), func(i int, sc []Context, st *Step) error {
		return tr.WriteStep(&out, i, sc, st)
	})
	if err != nil {
		t.Fatal(err)
	}
	var rules []Rule
	for _, st := range steps {
		rules = append(rules, st.Rule)
	}
	if got := rules; len(got) != 3 || got[0] != 6 || got[1] != 6 || got[2] != 5 {
		t.Errorf("rules %v, want [6 6 5]", got)
	}
	if n := len(steps[0].SC); n != 1 || steps[0].SC[0].Node.PathString() != "[deposit]" {
		t.Errorf("SC1 = %v, want {([deposit], v = 250)}", steps[0].SC)
	}
	if n := len(steps[1].SC); n != 1 || steps[1].SC[0].Node.PathString() != "[deposit, ask]" {
		t.Errorf("SC2 = %v, want {([deposit, ask], ...)}", steps[1].SC)
	}
	last := steps[2]
	if last.Verdict != WeakPass || paths(last.Next) != "[deposit, ask, cash], [deposit, ask, cashFee]" || paths(last.NextPass) != "[deposit, ask, cash]" {
		t.Errorf("last step: %s, Next %s, NextPass %s; want WeakPass, η11 and η12, η11", last.Verdict, setString(last.Next), setString(last.NextPass))
	}
	golden(t, "testdata/example4.golden", out.Bytes())
}

// golden compares got with the file, or rewrites it with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s--- want\n%s", filepath.Base(file), got, want)
	}
}

// TestVerdicts replays short traces on the ATM, each ending in one of
// the verdicts (or none), with the rule of each step.
func TestVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		accept  []string
		trace   string
		rules   []Rule
		verdict Verdict
	}{
		{"example 4", []string{"deposit ask cash"}, "deposit?250 amount?50 cash!50", []Rule{6, 6, 5}, WeakPass},
		{"fail: cash(51) after amount(50)", []string{"deposit ask cash"}, "deposit?250 amount?50 cash!51", []Rule{6, 6, 2}, Fail},
		{"fail: no output allowed in q0", []string{"deposit ask cash"}, "deposit?250 sum!250", []Rule{6, 2}, Fail},
		{"fail: quiescence in q1", []string{"deposit ask cash"}, "deposit?250 amount?50 delta!", []Rule{6, 6, 2}, Fail},
		{"fail: unknown output", []string{"deposit ask cash"}, "deposit?250 amount?50 beep!", []Rule{6, 6, 2}, Fail},
		{"pass: only accept explains it", []string{"check sum ask cash"}, "check? sum!2000 amount?50 cash!50", []Rule{6, 1, 6, 4}, Pass},
		{"inconc: leaves the purpose", []string{"deposit ask cash"}, "deposit?250 amount?50 screen!no_money", []Rule{6, 6, 3}, Inconc},
		{"inconc: quiescence not in the purpose", []string{"deposit ask cash"}, "deposit?250 delta!", []Rule{6, 3}, Inconc},
		{"pass: quiescence accepted", []string{"deposit delta"}, "deposit?7 delta!", []Rule{6, 4}, Pass},
		{"stimulation outside the purpose", []string{"deposit ask cash"}, "check?", []Rule{NoRule}, Inconc},
		{"inconc: sum shows m0 too small for the fee-free branch", []string{"check sum ask cash"}, "check? sum!10", []Rule{6, 3}, Inconc},
		{"no verdict yet", []string{"check sum ask cash"}, "check? sum!2000", []Rule{6, 1}, None},
		{"fail: fee not charged", []string{"check sum ask cashFee check sum"}, "check? sum!500 amount?5 cash!5 check? sum!495", []Rule{6, 1, 6, 1, 6, 2}, Fail},
		{"pass: fee charged", []string{"check sum ask cashFee check sum"}, "check? sum!500 amount?5 cash!5 check? sum!494", []Rule{6, 1, 6, 1, 6, 4}, Pass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTester(t, tc.accept...)
			steps, err := tr.Replay(events(t, tr, tc.trace), nil)
			if err != nil {
				t.Fatal(err)
			}
			var rules []Rule
			for _, st := range steps {
				rules = append(rules, st.Rule)
			}
			v := steps[len(steps)-1].Verdict
			if !equalRules(rules, tc.rules) || v != tc.verdict {
				t.Errorf("rules %v, verdict %s; want %v, %s (%s)", rules, v, tc.rules, tc.verdict, steps[len(steps)-1].Reason)
			}
		})
	}
}

func equalRules(a, b []Rule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestOverall checks the order of verdicts over several runs: Fail >
// Pass > WeakPass > Inconc.
func TestOverall(t *testing.T) {
	for _, tc := range []struct {
		vs   []Verdict
		want Verdict
	}{
		{nil, None},
		{[]Verdict{Inconc}, Inconc},
		{[]Verdict{Inconc, WeakPass}, WeakPass},
		{[]Verdict{WeakPass, Pass, Inconc}, Pass},
		{[]Verdict{Pass, Fail, WeakPass}, Fail},
	} {
		if got := Overall(tc.vs...); got != tc.want {
			t.Errorf("Overall(%v) = %s, want %s", tc.vs, got, tc.want)
		}
	}
}
