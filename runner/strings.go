package runner

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Strings the tester sends are found without the solver's luck: Z3
// 4.8.12 answers unknown, or takes seconds, on regular expressions
// together with concatenation and length. Candidates come first, each
// checked by exact evaluation (refutes), and the solver only confirms a
// candidate that exact evaluation cannot refute; its unknown is answered
// by the next candidate (pick.go). The candidates for a string
// identifier, in an order the run's random source fixes:
//
//   - a value an equality of the constraints forces: p == "Dear " + n
//     with n known gives the value directly;
//   - members of the regular expressions the constraints apply to it
//     (expr.Members: random members, the shortest one, members at the
//     boundary lengths of its length tests, len(p) <= 8: 8 and 9);
//   - the string constants of the constraints, prefixes and suffixes
//     completed by a word, the strings seen in the run;
//   - random readable words of random shapes (randomWord).
//
// The constraints relate identifiers by equalities (name@1 == s@1, msg@2
// == "Dear " + name@1): what is said of an identifier equal to p is
// said of p, and the length of an identifier equal to a concatenation
// of constants and p is len(p) plus theirs.

// maxStringCands bounds the candidates made for one identifier.
const maxStringCands = 24

// strInfo is what the constraints say of one string identifier.
type strInfo struct {
	alias  map[string]bool // identifiers equal to it (itself included), by key
	off    map[string]int  // identifiers whose length is its length plus off
	forced []string        // values equalities force
	res    []*expr.Regex   // patterns it must match, or may (under ||)
	lo, hi int             // bounds of its length (hi < 0: none)
	lens   []int           // boundary lengths of its length tests
	lits   []string        // string constants of the constraints
	hinted []string        // values of equalities under other operators
	parts  []strPart       // bytes equalities fix: s[0:1] == t[0:1] with t known
}

// A strPart says that the bytes of a string from at are text.
type strPart struct {
	at   int
	text string
}

// patch returns s with the bytes of p written over it, when s is long
// enough.
func (p strPart) patch(s string) string {
	if len(s) < p.at+len(p.text) {
		return s
	}
	return s[:p.at] + p.text + s[p.at+len(p.text):]
}

func identKey(id *expr.Ident) string { return string(rune('0'+int(id.Kind))) + id.Name }

// stringCandidates returns the values to try for the string identifier
// id under cons, the values already chosen being known (by name), most
// promising first, without repetition.
func (x *execution) stringCandidates(id *expr.Ident, cons []expr.Expr, known map[string]expr.Value) []string {
	in := analyseStrings(id, cons, known)
	res, lens := x.flowHints(id)
	for _, re := range res {
		if !slices.Contains(in.res, re) {
			in.res = append(in.res, re)
		}
	}
	in.lens = append(in.lens, lens...)
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] && len(out) < maxStringCands {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range in.forced {
		add(s)
	}
	for _, s := range in.hinted {
		add(s)
	}
	plain := add
	add = func(s string) {
		for _, p := range in.parts {
			if x.rng.IntN(3) > 0 {
				s = p.patch(s)
			}
		}
		plain(s)
	}
	members := x.regexMembers(in)
	seenRun := x.seenStrings()
	for len(out) < maxStringCands {
		before := len(out)
		switch k := x.rng.IntN(10); {
		case k < 6 && len(members) > 0:
			add(members[0])
			members = members[1:]
		case k < 8 && len(in.lits) > 0:
			add(x.fromLiteral(in.lits[x.rng.IntN(len(in.lits))], in))
		case k < 9 && len(seenRun) > 0:
			add(seenRun[x.rng.IntN(len(seenRun))])
		default:
			add(randomWord(x.rng, x.wordLength(in)))
		}
		if len(out) == before && len(members) == 0 && x.rng.IntN(4) == 0 {
			add(randomWord(x.rng, 1+x.rng.IntN(12)))
		}
	}
	return out
}

// wordLength returns a random length within the bounds of in.
func (x *execution) wordLength(in *strInfo) int {
	lo, hi := max(in.lo, 1), in.hi
	if hi < 0 || hi > lo+12 {
		hi = lo + 12
	}
	if hi < lo {
		return lo
	}
	if len(in.lens) > 0 && x.rng.IntN(3) == 0 {
		if n := in.lens[x.rng.IntN(len(in.lens))]; n >= 0 {
			return n
		}
	}
	return lo + x.rng.IntN(hi-lo+1)
}

// fromLiteral returns lit itself, or lit completed by a word on one
// side (a prefix, a suffix or a part of the value wanted).
func (x *execution) fromLiteral(lit string, in *strInfo) string {
	w := randomWord(x.rng, 1+x.rng.IntN(6))
	switch x.rng.IntN(3) {
	case 0:
		return lit
	case 1:
		return lit + w
	}
	return w + lit
}

// regexMembers returns members of the patterns of in, within its length
// bounds: of random lengths, and now and then the shortest one or one
// at a boundary length (exact evaluation then checks them against the
// other patterns).
func (x *execution) regexMembers(in *strInfo) []string {
	if len(in.res) == 0 {
		return nil
	}
	var out []string
	members := map[*expr.Regex]*expr.Members{}
	for range maxStringCands {
		re := in.res[x.rng.IntN(len(in.res))]
		m := members[re]
		if m == nil {
			m = expr.NewMembers(re)
			members[re] = m
		}
		var ls []int
		for _, n := range m.Lengths() {
			if n >= in.lo && (in.hi < 0 || n <= in.hi) {
				ls = append(ls, n)
			}
		}
		if len(ls) == 0 {
			continue
		}
		n := ls[x.rng.IntN(min(len(ls), 16))] // short members mostly
		switch k := x.rng.IntN(6); {
		case k == 0:
			n = ls[0]
		case k == 1 && len(in.lens) > 0:
			if b := in.lens[x.rng.IntN(len(in.lens))]; slices.Contains(ls, b) {
				n = b
			}
		}
		if s, ok := m.Member(x.rng, n); ok {
			out = append(out, s)
		}
	}
	return out
}

// flowHints returns the patterns and the boundary lengths that the
// guards of the test case apply to the variables that a send assigns
// the parameter of id (p, or p@k in a path) to: what the strings sent
// will meet later (name := s, then regexp.MatchString(p, name) && msg ==
// "Dear " + name && len(msg) >= 9: the pattern, and the lengths 3 and 4
// for s).
func (x *execution) flowHints(id *expr.Ident) ([]*expr.Regex, []int) {
	if id.Kind != expr.ParamIdent {
		return nil, nil
	}
	base, _, _ := strings.Cut(id.Name, "@")
	tc := x.r.tc
	var vars []string
	for _, t := range tc.Transitions {
		for _, as := range t.Assign {
			if p, ok := as.Value.(*expr.Ident); ok && p.Kind == expr.ParamIdent && p.Name == base && p.T.Kind == expr.Str && !slices.Contains(vars, as.Var) {
				vars = append(vars, as.Var)
			}
		}
	}
	var res []*expr.Regex
	var lens []int
	for _, t := range tc.Transitions {
		for _, v := range vars {
			if t.Guard == nil || !expr.Mentions(t.Guard, expr.VarIdent, v) {
				continue
			}
			in := analyseStrings(&expr.Ident{Name: v, Kind: expr.VarIdent, T: expr.StringType}, []expr.Expr{t.Guard}, nil)
			for _, re := range in.res {
				if !slices.Contains(res, re) {
					res = append(res, re)
				}
			}
			lens = append(lens, in.lens...)
		}
	}
	return res, lens
}

// seenStrings returns the string values of the run's steps so far.
func (x *execution) seenStrings() []string { return x.seen }

// see records the string values of a step's arguments.
func (x *execution) see(args map[string]expr.Value) {
	for _, k := range sortedKeys(args) {
		if v := args[k]; v.T.Kind == expr.Str && !slices.Contains(x.seen, v.Str) {
			x.seen = append(x.seen, v.Str)
		}
	}
}

// analyseStrings collects what cons say of the string identifier id.
func analyseStrings(id *expr.Ident, cons []expr.Expr, known map[string]expr.Value) *strInfo {
	in := &strInfo{alias: map[string]bool{identKey(id): true}, off: map[string]int{identKey(id): 0}, hi: -1}
	var conj []expr.Expr
	for _, c := range cons {
		conj = append(conj, expr.Conjuncts(c)...)
	}
	for changed := true; changed; { // aliases and length offsets, to a fixpoint
		changed = false
		for _, c := range conj {
			changed = in.relate(c) || changed
		}
	}
	for _, c := range conj {
		in.conjunct(c, known)
	}
	for _, c := range cons {
		expr.Inspect(c, func(n expr.Expr) {
			switch n := n.(type) {
			case *expr.Binary:
				in.nested(n, known)
			case *expr.StrLit:
				if n.Val != "" && !slices.Contains(in.lits, n.Val) {
					in.lits = append(in.lits, n.Val)
				}
			case *expr.StrCall:
				if n.Fn == expr.StrMatch && in.isAlias(n.Args[0]) && !slices.Contains(in.res, n.Re) {
					in.res = append(in.res, n.Re)
				}
			}
		})
	}
	return in
}

func (in *strInfo) isAlias(e expr.Expr) bool {
	id, ok := e.(*expr.Ident)
	return ok && in.alias[identKey(id)]
}

// relate extends the aliases and length offsets by the equality c.
func (in *strInfo) relate(c expr.Expr) bool {
	b, ok := c.(*expr.Binary)
	if !ok || b.Op != expr.Eq || b.X.Type() != expr.StringType {
		return false
	}
	changed := false
	for _, sides := range [][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		v, ok := sides[0].(*expr.Ident)
		if !ok {
			continue
		}
		k := identKey(v)
		if in.isAlias(sides[1]) && !in.alias[k] {
			in.alias[k], in.off[k], changed = true, 0, true
		}
		if off, ok := in.lengthOffset(sides[1]); ok {
			if _, had := in.off[k]; !had {
				in.off[k], changed = off, true
			}
		}
	}
	return changed
}

// lengthOffset returns off when len(e) is len(id) + off: e is an
// identifier with an offset, or a concatenation of one and constants.
func (in *strInfo) lengthOffset(e expr.Expr) (int, bool) {
	switch e := e.(type) {
	case *expr.Ident:
		off, ok := in.off[identKey(e)]
		return off, ok
	case *expr.StrCall:
		if e.Fn != expr.StrConcat {
			return 0, false
		}
		a, aok := in.lengthOffset(e.Args[0])
		b, bok := in.lengthOffset(e.Args[1])
		la, lok := e.Args[0].(*expr.StrLit)
		lb, rok := e.Args[1].(*expr.StrLit)
		switch {
		case aok && rok:
			return a + len(lb.Val), true
		case bok && lok:
			return b + len(la.Val), true
		}
	}
	return 0, false
}

// nested reads an equality under any operator: a value it gives id,
// or bytes it fixes (id[i:j] == e, id[i] == e with e known).
func (in *strInfo) nested(b *expr.Binary, known map[string]expr.Value) {
	if b.Op != expr.Eq || b.X.Type() != expr.StringType {
		return
	}
	for _, sides := range [][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		v, ok := evalKnown(sides[1], known)
		if !ok {
			continue
		}
		if in.isAlias(sides[0]) && !slices.Contains(in.hinted, v.Str) {
			in.hinted = append(in.hinted, v.Str)
		}
		c, ok := sides[0].(*expr.StrCall)
		if !ok || (c.Fn != expr.StrSlice && c.Fn != expr.StrAt) || !in.isAlias(c.Args[0]) {
			continue
		}
		if at, ok := c.Args[1].(*expr.IntLit); ok && at.Val.IsInt64() && at.Val.Sign() >= 0 && at.Val.Int64() < expr.MaxMemberLen {
			in.parts = append(in.parts, strPart{int(at.Val.Int64()), v.Str})
		}
	}
}

// conjunct reads the forced values and length bounds of one conjunct.
func (in *strInfo) conjunct(c expr.Expr, known map[string]expr.Value) {
	neg := false
	if u, ok := c.(*expr.Unary); ok && u.Op == expr.Not {
		neg, c = true, u.X
	}
	b, ok := c.(*expr.Binary)
	if !ok || !b.Op.IsComparison() {
		return
	}
	op := b.Op
	if neg {
		op = op.Negate()
	}
	if op == expr.Eq && b.X.Type() == expr.StringType {
		for _, sides := range [][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if in.isAlias(sides[0]) {
				if v, ok := evalKnown(sides[1], known); ok {
					in.forced = append(in.forced, v.Str)
				}
			}
		}
		return
	}
	for _, sides := range []struct {
		l, k expr.Expr
		op   expr.Op
	}{{b.X, b.Y, op}, {b.Y, b.X, op.Swap()}} {
		l, ok := sides.l.(*expr.StrCall)
		k, kok := sides.k.(*expr.IntLit)
		if !ok || !kok || l.Fn != expr.StrLen || !k.Val.IsInt64() {
			continue
		}
		off, ok := in.lengthOffset(l.Args[0])
		if !ok {
			continue
		}
		in.bound(sides.op, int(k.Val.Int64())-off)
	}
}

// bound records len(id) op n.
func (in *strInfo) bound(op expr.Op, n int) {
	switch op {
	case expr.Le:
		in.hi, in.lens = minBound(in.hi, n), append(in.lens, n, n+1)
	case expr.Lt:
		in.hi, in.lens = minBound(in.hi, n-1), append(in.lens, n-1, n)
	case expr.Ge:
		in.lo, in.lens = max(in.lo, n), append(in.lens, n-1, n)
	case expr.Gt:
		in.lo, in.lens = max(in.lo, n+1), append(in.lens, n, n+1)
	case expr.Eq:
		in.lo, in.hi, in.lens = max(in.lo, n), minBound(in.hi, n), append(in.lens, n)
	default:
		in.lens = append(in.lens, n-1, n, n+1)
	}
}

func minBound(hi, n int) int {
	if hi < 0 || n < hi {
		return max(n, 0)
	}
	return hi
}

// evalKnown evaluates e when every identifier in it has a known value
// (by name) and it calls no external function.
func evalKnown(e expr.Expr, known map[string]expr.Value) (expr.Value, bool) {
	ok := true
	r := expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
		if v, has := known[id.Name]; has {
			return v.Expr()
		}
		ok = false
		return nil
	})
	if !ok || hasCall(r) {
		return expr.Value{}, false
	}
	v, err := expr.Eval(r, expr.Valuation{})
	return v, err == nil
}

func hasCall(e expr.Expr) bool {
	found := false
	expr.Inspect(e, func(n expr.Expr) {
		if _, ok := n.(*expr.Call); ok {
			found = true
		}
	})
	return found
}

// randomWord returns a word of n bytes of a random shape: a name
// (a capital, then small letters), small letters, capitals, a name with
// one other byte among its letters, letters with digits and spaces, or
// any printable ASCII.
func randomWord(rng *rand.Rand, n int) string {
	const lower, upper, digits = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"
	pick := func(set string) byte { return set[rng.IntN(len(set))] }
	var b strings.Builder
	shape := rng.IntN(11)
	odd := 1 + rng.IntN(max(n-1, 1)) // the other byte of a name, shape 9
	for i := 0; i < n; i++ {
		switch {
		case (shape < 5 || shape == 9) && i == 0: // a name: Capital then small letters
			b.WriteByte(pick(upper))
		case shape == 9 && i == odd:
			b.WriteByte(pick(digits + " -'.1_" + upper))
		case shape < 5 || shape == 9:
			b.WriteByte(pick(lower))
		case shape < 7: // small letters only
			b.WriteByte(pick(lower))
		case shape == 7: // capitals only
			b.WriteByte(pick(upper))
		case shape == 8: // letters with a digit or a space inside
			b.WriteByte(pick(lower + upper + digits + " "))
		default: // any printable ASCII
			b.WriteByte(byte(' ' + rng.IntN(95)))
		}
	}
	return b.String()
}

// guessTries is how many draws exact evaluation tries for a send of a
// before the solver is asked: one, or stringGuesses when a has a string
// parameter (a draw costs microseconds; a solver check with strings and
// regular expressions, up to seconds).
func guessTries(a *spec.Action) int {
	for _, p := range a.Params {
		if p.Type == expr.StringType {
			return stringGuesses
		}
	}
	return 1
}

const stringGuesses = 48

// relateStrings makes the string values of args (drawn independently)
// related now and then, as guards that compare strings want: a value
// takes the first byte of an earlier one, or equals it.
func (x *execution) relateStrings(a *spec.Action, args map[string]expr.Value) {
	var prev []string
	for _, p := range a.Params {
		v, ok := args[p.Name]
		if !ok || p.Type != expr.StringType {
			continue
		}
		s := v.Str
		if len(prev) > 0 {
			o := prev[x.rng.IntN(len(prev))]
			switch k := x.rng.IntN(8); {
			case k < 3 && len(o) > 0 && len(s) > 0:
				s = o[:1] + s[1:]
			case k == 3:
				s = o
			}
		}
		args[p.Name] = expr.StringValue(s)
		prev = append(prev, s)
	}
}
