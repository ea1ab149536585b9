package abstraction

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// parseExpr parses a sum of terms such as "2*x - y + 3/2" over sp.
func parseExpr(t testing.TB, sp *Space, s string) LinExpr {
	t.Helper()
	var e LinExpr
	s = strings.ReplaceAll(s, " ", "")
	if s == "" {
		t.Fatalf("empty expression")
	}
	for len(s) > 0 {
		sign := big.NewRat(1, 1)
		if s[0] == '+' || s[0] == '-' {
			if s[0] == '-' {
				sign.Neg(sign)
			}
			s = s[1:]
		}
		j := strings.IndexAny(s, "+-")
		if j < 0 {
			j = len(s)
		}
		tok := s[:j]
		s = s[j:]
		coef := new(big.Rat).Set(sign)
		name := tok
		if k := strings.Index(tok, "*"); k >= 0 {
			c, ok := new(big.Rat).SetString(tok[:k])
			if !ok {
				t.Fatalf("bad coefficient %q", tok)
			}
			coef.Mul(coef, c)
			name = tok[k+1:]
		} else if tok != "" && (unicode.IsDigit(rune(tok[0]))) {
			c, ok := new(big.Rat).SetString(tok)
			if !ok {
				t.Fatalf("bad constant %q", tok)
			}
			e = e.Add(Const(c.Mul(c, coef)))
			continue
		}
		if k := strings.Index(name, "/"); k >= 0 {
			c, ok := new(big.Rat).SetString("1" + name[k:])
			if !ok {
				t.Fatalf("bad term %q", tok)
			}
			coef.Mul(coef, c)
			name = name[:k]
		}
		d := sp.Index(name)
		if d < 0 {
			t.Fatalf("unknown variable %q", name)
		}
		e = e.Add(Var(d).Scale(coef))
	}
	return e
}

// parseCons parses "lhs op rhs" with op among <=, >=, =, <, >.
func parseCons(t testing.TB, sp *Space, s string) Constraint {
	t.Helper()
	for _, op := range []string{"<=", ">=", "<", ">", "="} {
		if i := strings.Index(s, op); i >= 0 {
			l := parseExpr(t, sp, s[:i])
			r := parseExpr(t, sp, s[i+len(op):])
			switch op {
			case "<=":
				return Constraint{l.Sub(r), Le}
			case ">=":
				return Constraint{r.Sub(l), Le}
			case "<":
				return Constraint{l.Sub(r), Lt}
			case ">":
				return Constraint{r.Sub(l), Lt}
			default:
				return Constraint{l.Sub(r), Eq}
			}
		}
	}
	t.Fatalf("no operator in %q", s)
	return Constraint{}
}

func parseAll(t testing.TB, sp *Space, cs ...string) []Constraint {
	t.Helper()
	out := make([]Constraint, len(cs))
	for i, c := range cs {
		out[i] = parseCons(t, sp, c)
	}
	return out
}

func mk(t testing.TB, dom Domain, sp *Space, cs ...string) Value {
	t.Helper()
	return dom.Universe(sp).MeetConstraints(parseAll(t, sp, cs...))
}

func mkP(t testing.TB, sp *Space, cs ...string) Value {
	t.Helper()
	return mk(t, Polyhedra(), sp, cs...)
}

func rspace(names ...string) *Space { return NewSpace(names, nil) }

func ispace(names ...string) *Space {
	b := make([]bool, len(names))
	for i := range b {
		b[i] = true
	}
	return NewSpace(names, b)
}

type point []*big.Rat

func (p point) String() string {
	s := make([]string, len(p))
	for i, x := range p {
		s[i] = x.RatString()
	}
	return "(" + strings.Join(s, ",") + ")"
}

func evalExpr(e LinExpr, pt point) *big.Rat {
	r := e.ConstTerm()
	for _, d := range e.Dims() {
		r.Add(r, new(big.Rat).Mul(e.Coeff(d), pt[d]))
	}
	return r
}

func holds(c Constraint, pt point) bool {
	v := evalExpr(c.Expr, pt)
	switch c.Op {
	case Le:
		return v.Sign() <= 0
	case Eq:
		return v.Sign() == 0
	default:
		return v.Sign() < 0
	}
}

// contains reports whether pt satisfies every exported constraint of v.
func contains(v Value, pt point) bool {
	for _, c := range v.Constraints() {
		if !holds(c, pt) {
			return false
		}
	}
	return true
}

func ri(n int64) *big.Rat { return big.NewRat(n, 1) }

// samplePoints returns random points of a polyhedron, from its generators:
// a convex combination of vertices plus nonnegative multiples of rays and
// arbitrary multiples of lines, plus the vertices themselves.
func samplePoints(v Value, rng *rand.Rand, k int) []point {
	p := v.(*poly)
	if p.empty {
		return nil
	}
	n := p.sp.Dim()
	var verts, dirs []vec
	for _, r := range p.rays {
		if r.sign(0) > 0 {
			verts = append(verts, r)
		} else {
			dirs = append(dirs, r)
		}
	}
	toPoint := func(g vec) point {
		pt := make(point, n)
		for i := range pt {
			pt[i] = new(big.Rat).SetFrac(g.at(i+1, new(big.Int)), g.at(0, new(big.Int)))
		}
		return pt
	}
	var out []point
	for _, g := range verts {
		out = append(out, toPoint(g))
	}
	for len(out) < k+len(verts) {
		pt := make(point, n)
		for i := range pt {
			pt[i] = new(big.Rat)
		}
		ws := make([]int64, len(verts))
		var tot int64
		for i := range ws {
			ws[i] = rng.Int64N(5)
			tot += ws[i]
		}
		if tot == 0 {
			ws[0], tot = 1, 1
		}
		for i, g := range verts {
			w := big.NewRat(ws[i], tot)
			vp := toPoint(g)
			for d := range pt {
				pt[d].Add(pt[d], new(big.Rat).Mul(w, vp[d]))
			}
		}
		add := func(g vec, c int64) {
			for d := range pt {
				pt[d].Add(pt[d], new(big.Rat).Mul(ri(c), new(big.Rat).SetInt(g.at(d+1, new(big.Int)))))
			}
		}
		for _, g := range dirs {
			add(g, rng.Int64N(4))
		}
		for _, g := range p.lines {
			add(g, rng.Int64N(7)-3)
		}
		out = append(out, pt)
	}
	return out
}

// randPoint returns a random rational point with coordinates in [-lim, lim]
// with denominators up to 3.
func randPoint(rng *rand.Rand, n int, lim int64) point {
	pt := make(point, n)
	for i := range pt {
		den := rng.Int64N(3) + 1
		pt[i] = big.NewRat(rng.Int64N(2*lim*den+1)-lim*den, den)
	}
	return pt
}

// pointValue returns the polyhedron {pt}.
func pointValue(sp *Space, pt point) Value {
	var cs []Constraint
	for i, x := range pt {
		cs = append(cs, Constraint{Var(i).Sub(Const(x)), Eq})
	}
	return Polyhedra().Universe(sp).MeetConstraints(cs)
}
