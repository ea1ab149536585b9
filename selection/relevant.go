package selection

import (
	"slices"

	"github.com/stg-tool/stg/spec/expr"
)

// The questions of the readable guards repeat from stage to stage of a
// long spec, under contexts that differ only in conjuncts about other
// variables: whether reach(l) ∧ r == a + b entails r < 150 does not
// depend on reach(l)'s s == 7. A question is therefore also remembered
// by its relevant part: the formula and the context's conjuncts that
// share a variable with it, directly or through other such conjuncts,
// each by its structure (shapeKey), the conjuncts sorted.
//
// Dropping the other conjuncts I keeps the answer when I is satisfiable
// over the integers: I's variables are disjoint from the rest, so
// context ∧ e and relevant ∧ e are then satisfiable together or not at
// all. It is known when the search found a model of the whole context
// (a verified point, integral where it must be); a question under any
// other context is neither answered from nor recorded in the memo by
// its relevant part. A question whose context keeps every conjunct is
// remembered by its structure alone, whatever the context.

// conjuncts are the conjuncts of a context with their shape keys and
// identifiers.
type conjuncts struct {
	es []expr.Expr // every conjunct but true (given.go)
	// pinned are the identifiers that a conjunct x == k fixes to a
	// numeric literal, by kind (given.go); nil when none.
	pinned [2]map[string]expr.Expr
	keys   []string
	ids    [][]identKey
	ok     bool // every conjunct has a key
}

// conjunctsOf returns the (cached) conjuncts of context.
func (d *decider) conjunctsOf(context expr.Expr) *conjuncts {
	if c, ok := d.ctxs.get(context); ok {
		return c
	}
	c := &conjuncts{ok: true}
	for _, x := range expr.Conjuncts(context) {
		if !expr.IsTrue(x) {
			c.es = append(c.es, x)
			c.pin(x)
		}
	}
	var buf [128]byte
	for _, x := range c.es {
		k, ok := shapeKey(buf[:0], x)
		if !ok {
			c.ok = false
			break
		}
		c.keys = append(c.keys, string(k))
		c.ids = append(c.ids, identsOf(x))
	}
	d.ctxs.put(context, c)
	return c
}

func identsOf(e expr.Expr) []identKey {
	var ids []identKey
	expr.Idents(e, func(id *expr.Ident) {
		if k := (identKey{id.Kind, id.Name, id.T}); !slices.Contains(ids, k) {
			ids = append(ids, k)
		}
	})
	return ids
}

// relevantKey returns the key of context ∧ e's relevant part, or false
// when the question is not to be remembered by it.
func (d *decider) relevantKey(context, e expr.Expr) (string, bool) {
	var buf [256]byte
	k, ok := d.appendRelevantKey(buf[:0], context, e)
	return string(k), ok
}

// appendRelevantKey appends relevantKey's key to dst: a caller that
// only looks the key up allocates nothing. (settle, which the search
// reaches again through contextSat, makes the same three calls itself:
// the compiler keeps dst on a caller's stack only when the function
// that returns it is not part of such a cycle.)
func (d *decider) appendRelevantKey(dst []byte, context, e expr.Expr) ([]byte, bool) {
	var buf [128]byte
	ek, ok := shapeKey(buf[:0], e)
	if !ok {
		return dst, false
	}
	keys, ok := d.relevantConjuncts(context, e)
	if !ok {
		return dst, false
	}
	return d.joinKey(dst, keys, ek), true
}

// relevantConjuncts returns the sorted shape keys of the conjuncts of
// context relevant to e, or false when the question is not to be
// remembered by them.
func (d *decider) relevantConjuncts(context, e expr.Expr) ([]string, bool) {
	c := d.conjunctsOf(context)
	if !c.ok {
		return nil, false
	}
	vars := identsOf(e)
	in := make([]bool, len(c.keys))
	for grew := true; grew; {
		grew = false
		for i, ids := range c.ids {
			if !in[i] && slices.ContainsFunc(ids, func(k identKey) bool { return slices.Contains(vars, k) }) {
				in[i], grew = true, true
				vars = append(vars, ids...)
			}
		}
	}
	var keys []string
	for i, k := range c.keys {
		if in[i] {
			keys = append(keys, k)
		}
	}
	if len(keys) < len(c.keys) && !d.contextSat(context) {
		return nil, false
	}
	slices.Sort(keys)
	return keys, true
}

// joinKey appends the key of the relevant conjuncts' keys and the
// formula's key ek to dst, marked by whether the solver's facts take
// part.
func (d *decider) joinKey(dst []byte, keys []string, ek []byte) []byte {
	dst = append(dst, "mf"[b2i(d.ctx.Facts() != nil)])
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = append(dst, k...)
	}
	return append(append(dst, '|'), ek...)
}

// contextSat reports whether the search finds a model of context.
func (d *decider) contextSat(context expr.Expr) bool {
	return expr.IsTrue(context) || d.decide(expr.True(), context) == sat
}
