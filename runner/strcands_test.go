package runner

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

func strIdent(name string, kind expr.IdentKind) *expr.Ident {
	return &expr.Ident{Name: name, Kind: kind, T: expr.StringType}
}

func matchCall(t *testing.T, pattern string, s expr.Expr) expr.Expr {
	t.Helper()
	re, err := expr.CompileRegex(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return &expr.StrCall{Fn: expr.StrMatch, Args: []expr.Expr{s}, Pattern: pattern, Re: re}
}

func strLen(s expr.Expr) expr.Expr { return &expr.StrCall{Fn: expr.StrLen, Args: []expr.Expr{s}} }

func concat(a, b expr.Expr) expr.Expr {
	return &expr.StrCall{Fn: expr.StrConcat, Args: []expr.Expr{a, b}}
}

// TestStringCandidates: for guards of the shapes strings meet (a pattern
// on a stored copy, an output equal to a constant and it, a length
// bound through the concatenation, first bytes compared), some
// candidate among the first satisfies the constraints by exact
// evaluation, for every seed; a value an equality forces comes first.
func TestStringCandidates(t *testing.T) {
	s, name, msg := strIdent("s@1", expr.ParamIdent), strIdent("name@1", expr.VarIdent), strIdent("msg@2", expr.ParamIdent)
	first := strIdent("first@1", expr.ParamIdent)
	n := strIdent("n", expr.ParamIdent)
	for _, tt := range []struct {
		name  string
		cons  []expr.Expr
		known map[string]expr.Value
		id    *expr.Ident
		first string // the candidate wanted first, when forced
	}{
		{"echo path", []expr.Expr{
			expr.Compare(expr.Eq, name, s),
			matchCall(t, `^[A-Z][a-z]+$`, name),
			expr.Compare(expr.Eq, msg, concat(expr.StrConst("Dear "), name)),
			expr.Compare(expr.Ge, strLen(msg), expr.IntConst(9)),
		}, nil, s, ""},
		{"forced by a concatenation", []expr.Expr{
			expr.Compare(expr.Eq, s, concat(expr.StrConst("Dear "), n)),
		}, map[string]expr.Value{"n": expr.StringValue("Ann")}, s, "Dear Ann"},
		{"first bytes", []expr.Expr{
			matchCall(t, `^[A-Z][a-z]*$`, s),
			expr.Compare(expr.Eq, &expr.StrCall{Fn: expr.StrSlice, Args: []expr.Expr{s, expr.IntConst(0), expr.IntConst(1)}},
				&expr.StrCall{Fn: expr.StrSlice, Args: []expr.Expr{first, expr.IntConst(0), expr.IntConst(1)}}),
			expr.Compare(expr.Ne, s, first),
		}, map[string]expr.Value{"first@1": expr.StringValue("Kim")}, s, ""},
		{"length window", []expr.Expr{
			matchCall(t, `^[0-9]+$`, s),
			expr.Compare(expr.Gt, strLen(s), expr.IntConst(5)),
			expr.Compare(expr.Le, strLen(s), expr.IntConst(6)),
		}, nil, s, ""},
		{"prefix", []expr.Expr{
			&expr.StrCall{Fn: expr.StrHasPrefix, Args: []expr.Expr{s, expr.StrConst("id-")}},
		}, nil, s, ""},
	} {
		for seed := uint64(1); seed <= 20; seed++ {
			x := &execution{rng: rand.New(rand.NewPCG(seed, 7)), r: &Runner{tc: &spec.Model{}}}
			cands := x.stringCandidates(tt.id, tt.cons, tt.known)
			if tt.first != "" && (len(cands) == 0 || cands[0] != tt.first) {
				t.Errorf("%s, seed %d: candidates %q, want %q first", tt.name, seed, cands, tt.first)
			}
			found := false
			for _, c := range cands[:min(len(cands), 12)] {
				found = found || exactly(tt.cons, tt.known, tt.id, expr.StringValue(c)) == holds
			}
			if !found {
				t.Errorf("%s, seed %d: no candidate among %q holds", tt.name, seed, cands)
			}
		}
	}
}

// TestExactly: exact evaluation refutes, confirms, or leaves open.
func TestExactly(t *testing.T) {
	s, msg := strIdent("s", expr.ParamIdent), strIdent("msg", expr.ParamIdent)
	k := &expr.Ident{Name: "k", Kind: expr.VarIdent, T: expr.IntType}
	cons := []expr.Expr{expr.AndOf(
		expr.Compare(expr.Eq, msg, concat(expr.StrConst("Dear "), s)),
		expr.Compare(expr.Ge, strLen(msg), expr.IntConst(9)),
	)}
	for _, tt := range []struct {
		cons []expr.Expr
		v    string
		want exactTruth
	}{
		{cons, "Anna", holds},
		{cons, "Ann", refuted},
		{append(cons, expr.Compare(expr.Lt, strLen(s), k)), "Anna", open},
		{append(cons, expr.Compare(expr.Lt, strLen(s), k)), "Ann", refuted},
		{append(cons, expr.Compare(expr.Eq, k, strLen(s)), expr.Compare(expr.Gt, k, expr.IntConst(4))), "Anna", refuted},
	} {
		if got := exactly(tt.cons, nil, s, expr.StringValue(tt.v)); got != tt.want {
			t.Errorf("%s with s = %q: %d, want %d", expr.Format(expr.AndOf(tt.cons...)), tt.v, got, tt.want)
		}
	}
}

// TestUndecided: a send whose string the candidates cannot find ends the
// run Inconc (the oracle's ErrUndecided), naming the guard's position,
// unless the solver finds a value within its time limit (an idle machine
// may): then the value sent satisfies the guard and the run passes.
// Never Fail, never an error of the run.
func TestUndecided(t *testing.T) {
	r := newRunner(t, "undecided.yaml", Options{Depth: 0})
	res, err := r.Run(context.Background(), adapter.InProcess(adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) {
		return []adapter.Output{{Action: "ok"}}, nil
	})), 1)
	if err != nil {
		t.Fatalf("err = %v, want an Inconc run", err)
	}
	switch res.Verdict {
	case Inconc:
		if !strings.Contains(res.Reason, "undecided.yaml:14:") || !strings.Contains(res.Reason, "no value decided") {
			t.Errorf("Inconc (%s): want the reason to name the guard's position", res.Reason)
		}
	case Pass:
		s, sent := "", false
		for _, st := range res.Trace {
			if st.Action == "put" && len(st.Args) == 1 {
				s, sent = st.Args[0].Value.Str, true
			}
		}
		if !sent || len(s) != 100 || !strings.HasPrefix(s, "q") || !strings.Contains(s, "zz") {
			t.Errorf("Pass after sending %q, which the guard does not allow", s)
		}
	default:
		t.Errorf("verdict %s (%s): want Inconc, or Pass with a value the guard allows", res.Verdict, res.Reason)
	}
}
