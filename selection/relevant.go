package selection

import (
	"slices"
	"strings"

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
	var buf [128]byte
	ek, ok := shapeKey(buf[:0], e)
	if !ok {
		return "", false
	}
	c := d.conjunctsOf(context)
	if !c.ok {
		return "", false
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
		return "", false
	}
	slices.Sort(keys)
	models := "m"
	if d.ctx.Facts() != nil {
		models = "f"
	}
	return models + strings.Join(keys, "&") + "|" + string(ek), true
}

// contextSat reports whether the search finds a model of context.
func (d *decider) contextSat(context expr.Expr) bool {
	return expr.IsTrue(context) || d.decide(expr.True(), context) == sat
}
