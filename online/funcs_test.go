package online

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// dblSpec receives x, then answers DBL(x) when it is above 10, else 0.
const dblSpec = `kind: spec
name: dbl
functions:
  DBL: {params: [int], result: int, table: [[1, 2]]}
variables: {x: int}
actions:
  in: {dir: input, params: {p: int}}
  out: {dir: output, params: {q: int}}
initial: {location: A}
transitions:
  - {name: get, from: A, action: in, assign: {x: p}, to: B}
  - {name: big, from: B, action: out, guard: "DBL(x) > 10 && q == DBL(x)", to: A}
  - {name: small, from: B, action: out, guard: "DBL(x) <= 10 && q == 0", to: A}
`

// dblTester returns a tester of the purpose accepting [get big] and
// [get small], its calls evaluated by funcs (nil: uninterpreted).
func dblTester(t *testing.T, funcs func(*spec.Model) *extfunc.Registry) *Tester {
	t.Helper()
	z, m, tp := purposeOn(t, dblSpec, &spec.SymPurpose{Name: "both", Accept: []spec.AcceptPath{{Names: []string{"get", "big"}}, {Names: []string{"get", "small"}}}}) // ranges_test.go
	tr := NewTester(z, tp)
	if funcs != nil {
		tr.Funcs = funcs(m)
		t.Cleanup(func() { tr.Funcs.Close() })
	}
	return tr
}

func registry(impl extfunc.GoFunc) func(*spec.Model) *extfunc.Registry {
	return func(m *spec.Model) *extfunc.Registry {
		r, err := extfunc.New(m.Funcs, extfunc.Options{})
		if err != nil {
			panic(err)
		}
		if impl != nil {
			r.Register("DBL", impl)
		}
		return r
	}
}

func double(a []expr.Value) (expr.Value, error) {
	return expr.IntValue(new(big.Int).Lsh(a[0].Int, 1)), nil
}

func dblEvents(p, q int64) []Event {
	return []Event{
		{Stim: true, Action: "in", Args: map[string]expr.Value{"p": expr.IntValue(big.NewInt(p))}},
		{Action: "out", Args: map[string]expr.Value{"q": expr.IntValue(big.NewInt(q))}},
	}
}

// TestFuncsVerdicts: with the function evaluated, an output is judged
// exactly; without it (calls uninterpreted), never Fail on what depends
// on the function's value; a call the tester cannot make is an error,
// never a verdict.
func TestFuncsVerdicts(t *testing.T) {
	for _, c := range []struct {
		name  string
		funcs func(*spec.Model) *extfunc.Registry
		p, q  int64
		want  string // verdict, or "error: ..."
	}{
		{"exact pass", registry(double), 7, 14, "Pass"},
		{"exact fail", registry(double), 7, 13, "Fail"},
		{"exact, small answer", registry(double), 3, 0, "Pass"},
		{"exact, wrong small answer", registry(double), 3, 6, "Fail"},
		{"uninterpreted: 13 may be DBL(7)", nil, 7, 13, "Pass"},
		{"uninterpreted: 0 may be the small answer", nil, 7, 0, "Pass"},
		{"table only, row", registry(nil), 1, 0, "Pass"},
		{"table only, row, wrong answer", registry(nil), 1, 2, "Fail"},
		{"table only, no row", registry(nil), 7, 14, "error: DBL(7): no table row and no implementation"},
		{"failing implementation", registry(func([]expr.Value) (expr.Value, error) { return expr.Value{}, errors.New("segfault") }),
			7, 14, "error: DBL(7): segfault"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := dblTester(t, c.funcs)
			steps, err := tr.Replay(dblEvents(c.p, c.q), nil)
			got := "none"
			if err != nil {
				got = "error: " + err.Error()
			} else if len(steps) > 0 {
				got = steps[len(steps)-1].Verdict.String()
			}
			if want, isErr := strings.CutPrefix(c.want, "error: "); isErr {
				if err == nil || !strings.Contains(got, want) {
					t.Errorf("got %s, want an error saying %q", got, want)
				}
				return
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}
