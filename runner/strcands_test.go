package runner

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
)

func strIdent(name string, kind spec.IdentKind) *spec.Ident {
	return &spec.Ident{Name: name, Kind: kind, T: spec.StringType}
}

func matchCall(t *testing.T, pattern string, s spec.Expr) spec.Expr {
	t.Helper()
	re, err := spec.CompileRegex(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return &spec.StrCall{Fn: spec.StrMatch, Args: []spec.Expr{s}, Pattern: pattern, Re: re}
}

func strLen(s spec.Expr) spec.Expr { return &spec.StrCall{Fn: spec.StrLen, Args: []spec.Expr{s}} }

func concat(a, b spec.Expr) spec.Expr {
	return &spec.StrCall{Fn: spec.StrConcat, Args: []spec.Expr{a, b}}
}

// TestStringCandidates: for guards of the shapes strings meet (a pattern
// on a stored copy, an output equal to a constant and it, a length
// bound through the concatenation, first bytes compared), some
// candidate among the first satisfies the constraints by exact
// evaluation, for every seed; a value an equality forces comes first.
func TestStringCandidates(t *testing.T) {
	s, name, msg := strIdent("s@1", spec.ParamIdent), strIdent("name@1", spec.VarIdent), strIdent("msg@2", spec.ParamIdent)
	first := strIdent("first@1", spec.ParamIdent)
	n := strIdent("n", spec.ParamIdent)
	for _, tt := range []struct {
		name  string
		cons  []spec.Expr
		known map[string]spec.Value
		id    *spec.Ident
		first string // the candidate wanted first, when forced
	}{
		{"echo path", []spec.Expr{
			spec.Compare(spec.Eq, name, s),
			matchCall(t, `^[A-Z][a-z]+$`, name),
			spec.Compare(spec.Eq, msg, concat(spec.StrConst("Dear "), name)),
			spec.Compare(spec.Ge, strLen(msg), spec.IntConst(9)),
		}, nil, s, ""},
		{"forced by a concatenation", []spec.Expr{
			spec.Compare(spec.Eq, s, concat(spec.StrConst("Dear "), n)),
		}, map[string]spec.Value{"n": spec.StringValue("Ann")}, s, "Dear Ann"},
		{"first bytes", []spec.Expr{
			matchCall(t, `^[A-Z][a-z]*$`, s),
			spec.Compare(spec.Eq, &spec.StrCall{Fn: spec.StrSlice, Args: []spec.Expr{s, spec.IntConst(0), spec.IntConst(1)}},
				&spec.StrCall{Fn: spec.StrSlice, Args: []spec.Expr{first, spec.IntConst(0), spec.IntConst(1)}}),
			spec.Compare(spec.Ne, s, first),
		}, map[string]spec.Value{"first@1": spec.StringValue("Kim")}, s, ""},
		{"length window", []spec.Expr{
			matchCall(t, `^[0-9]+$`, s),
			spec.Compare(spec.Gt, strLen(s), spec.IntConst(5)),
			spec.Compare(spec.Le, strLen(s), spec.IntConst(6)),
		}, nil, s, ""},
		{"prefix", []spec.Expr{
			&spec.StrCall{Fn: spec.StrHasPrefix, Args: []spec.Expr{s, spec.StrConst("id-")}},
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
				found = found || exactly(tt.cons, tt.known, tt.id, spec.StringValue(c)) == holds
			}
			if !found {
				t.Errorf("%s, seed %d: no candidate among %q holds", tt.name, seed, cands)
			}
		}
	}
}

// TestExactly: exact evaluation refutes, confirms, or leaves open.
func TestExactly(t *testing.T) {
	s, msg := strIdent("s", spec.ParamIdent), strIdent("msg", spec.ParamIdent)
	k := &spec.Ident{Name: "k", Kind: spec.VarIdent, T: spec.IntType}
	cons := []spec.Expr{spec.AndOf(
		spec.Compare(spec.Eq, msg, concat(spec.StrConst("Dear "), s)),
		spec.Compare(spec.Ge, strLen(msg), spec.IntConst(9)),
	)}
	for _, tt := range []struct {
		cons []spec.Expr
		v    string
		want exactTruth
	}{
		{cons, "Anna", holds},
		{cons, "Ann", refuted},
		{append(cons, spec.Compare(spec.Lt, strLen(s), k)), "Anna", open},
		{append(cons, spec.Compare(spec.Lt, strLen(s), k)), "Ann", refuted},
		{append(cons, spec.Compare(spec.Eq, k, strLen(s)), spec.Compare(spec.Gt, k, spec.IntConst(4))), "Anna", refuted},
	} {
		if got := exactly(tt.cons, nil, s, spec.StringValue(tt.v)); got != tt.want {
			t.Errorf("%s with s = %q: %d, want %d", spec.Format(spec.AndOf(tt.cons...)), tt.v, got, tt.want)
		}
	}
}

// TestUndecided: a send whose string nothing decides ends the run
// Inconc (the oracle's ErrUndecided), naming the guard's position: never
// Fail, never an error of the run.
func TestUndecided(t *testing.T) {
	r := newRunner(t, "undecided.yaml", Options{Depth: 0})
	res, err := r.Run(context.Background(), adapter.InProcess(adapter.SUTFunc(func(string, map[string]spec.Value) ([]adapter.Output, error) {
		return []adapter.Output{{Action: "ok"}}, nil
	})), 1)
	if err != nil {
		t.Fatalf("err = %v, want an Inconc run", err)
	}
	if res.Verdict != Inconc || !strings.Contains(res.Reason, "undecided.yaml:14:") || !strings.Contains(res.Reason, "no value decided") {
		t.Errorf("verdict %s (%s): want Inconc naming the guard's position", res.Verdict, res.Reason)
	}
}
