package solver

import (
	"sort"
	"strings"

	"github.com/stg-tool/stg/spec/expr"
)

// Stats counts the work of a context since it was made: what Z3 ran,
// what the memo answered instead, and what callers settled without
// asking (NoteSettled). Generation reports them (--verbose) so that a
// change that multiplies the queries shows.
type Stats struct {
	Checks  int // satisfiability checks run by Z3
	Tactics int // tactic applications (Simplify, EliminateExists)
	Hits    int // questions answered from the memo
	Misses  int // questions asked of Z3 and then memoised
	Settled int // questions callers settled themselves (NoteSettled)
	Renewed int // solvers replaced after a check that answered Unknown (solver.go)
}

// Sub returns s - t, the work done between two readings.
func (s Stats) Sub(t Stats) Stats { return s.Add(t.scaled(-1)) }

// Add returns s + t, the work of two contexts together (Context.Join).
func (s Stats) Add(t Stats) Stats {
	return Stats{Checks: s.Checks + t.Checks, Tactics: s.Tactics + t.Tactics, Hits: s.Hits + t.Hits, Misses: s.Misses + t.Misses, Settled: s.Settled + t.Settled, Renewed: s.Renewed + t.Renewed}
}

func (s Stats) scaled(k int) Stats {
	return Stats{Checks: k * s.Checks, Tactics: k * s.Tactics, Hits: k * s.Hits, Misses: k * s.Misses, Settled: k * s.Settled, Renewed: k * s.Renewed}
}

// NoteSettled counts a question that the caller settled without the
// context (the selection decides linear ones with polyhedra), so that
// the counts show where the questions went.
func (c *Context) NoteSettled() { c.stats.Settled++ }

// Stats returns the counts so far.
func (c *Context) Stats() Stats { return c.stats }

// SetMemo turns the memo on (the default) or off. With it on, the
// answers of Sat, Valid, Entails, Equivalent, Simplify and
// EliminateExists are remembered per formula: a question asked again
// is answered without Z3. Only definite answers are remembered (never
// Unknown or an error), so the memo changes no result. Turning it off
// forgets everything; tests use it to compare.
func (c *Context) SetMemo(on bool) {
	c.memo = memo{off: !on}
}

// memo holds the remembered answers. Keys are the printed formulas with
// the kind and type of every identifier, enum constant and function
// appended (printing alone does not tell a variable from a parameter of
// the same name), tagged by the question.
type memo struct {
	off   bool
	sat   map[string]Result    // Sat, and the unsatisfiability questions
	exprs map[string]expr.Expr // Simplify and EliminateExists
}

// key returns the memo key of the question tag about es, or "" when
// the formulas cannot be keyed safely (memo off, or one name standing
// for two identifiers, or an ill-formed tree, which the encoder then
// reports).
func (c *Context) key(tag string, es ...expr.Expr) (k string) {
	if c.memo.off {
		return ""
	}
	defer func() {
		if recover() != nil {
			k = "" // printing an ill-formed tree failed
		}
	}()
	var b strings.Builder
	b.WriteString(tag)
	tags := map[string]string{} // name -> its kind and type
	ok := true
	note := func(name, what string) {
		if old, seen := tags[name]; seen && old != what {
			ok = false
		}
		tags[name] = what
	}
	for _, e := range es {
		b.WriteByte(0)
		b.WriteString(expr.Format(e))
		expr.Inspect(e, func(x expr.Expr) {
			switch x := x.(type) {
			case *expr.Ident:
				note("i"+x.Name, string(rune('0'+x.Kind))+typeKey(x.T))
			case *expr.EnumLit:
				note("e"+x.Name(), typeKey(x.Type()))
			case *expr.Call:
				sig := typeKey(x.T)
				for _, a := range x.Args {
					sig += "," + typeKey(a.Type())
				}
				note("f"+x.Func, sig)
			}
		})
	}
	if !ok {
		return ""
	}
	names := make([]string, 0, len(tags))
	for n := range tags {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteByte(0)
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte(':')
		b.WriteString(tags[n])
		b.WriteByte(';')
	}
	return b.String()
}

func (c *Context) recallResult(k string) (Result, bool) {
	if k == "" {
		return Unknown, false
	}
	r, ok := c.memo.sat[k]
	if ok {
		c.stats.Hits++
	}
	return r, ok
}

func (c *Context) rememberResult(k string, r Result) {
	if k == "" || r == Unknown {
		return
	}
	if c.memo.sat == nil {
		c.memo.sat = map[string]Result{}
	}
	c.memo.sat[k] = r
	c.stats.Misses++
}

func (c *Context) recallExpr(k string) (expr.Expr, bool) {
	if k == "" {
		return nil, false
	}
	e, ok := c.memo.exprs[k]
	if ok {
		c.stats.Hits++
	}
	return e, ok
}

func (c *Context) rememberExpr(k string, e expr.Expr) {
	if k == "" || e == nil {
		return
	}
	if c.memo.exprs == nil {
		c.memo.exprs = map[string]expr.Expr{}
	}
	c.memo.exprs[k] = e
	c.stats.Misses++
}
