package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

// A Context owns one Z3 context and everything made in it: sorts and
// constants for the identifiers, enums and functions it has seen, a
// solver for one-shot queries, and tactics.
//
// A Context is not safe for concurrent use: Z3 crashes when two threads
// use one context. Give each goroutine its own Context. The one exception
// is Interrupt, which may be called from any goroutine.
type Context struct {
	z C.Z3_context

	// mu orders Interrupt against Close and against the start and end
	// of each check or tactic (busy).
	mu     sync.Mutex
	closed bool
	busy   bool

	timeout uint   // per check, in ms; 0 = none
	rlimit  uint32 // Z3's resource limit per check (rlimit.go); 0 = none

	// The watchdog of the call in progress (watchdog.go), under mu:
	// gen numbers the calls, expired is the generation the watchdog
	// stopped, interrupted says an interrupt may be pending in Z3.
	gen         uint64
	expired     uint64
	interrupted bool
	drainer     C.Z3_solver // an empty solver whose check clears it

	memo  memo      // answers by formula (memo.go)
	facts expr.Expr // premises of every question (facts.go), or nil
	stats Stats     // work done, for Stats

	intSort, realSort, boolSort C.Z3_sort
	strSort                     C.Z3_sort // made on first use (strings.go)

	idents map[identKey]C.Z3_ast    // constant for each identifier
	enums  map[*expr.Enum]*enumSort // Z3 enumeration sort of each enum
	funcs  map[string]C.Z3_func_decl
	decls  map[uint32]declInfo // by Z3 declaration id: what to decode to
	nsorts int                 // enumeration sorts made, for unique names

	// scratch holds the references taken during the current operation.
	scratch []C.Z3_ast
	refs    int // references this package holds, for tests

	// the solver behind the one-shot queries (Sat, Valid, Model, ...)
	oneShot *Solver

	tactics map[string]C.Z3_tactic
}

// identKey identifies a Z3 constant: identifiers of different kinds or
// types are different constants even when their names agree.
type identKey struct {
	kind expr.IdentKind
	name string
	t    expr.Type
}

type enumSort struct {
	sort   C.Z3_sort
	consts []C.Z3_ast // the constants, in spec order
}

// declInfo says what a Z3 declaration stands for in our tree.
type declInfo struct {
	ident *expr.Ident // a constant made for this identifier
	enum  *expr.Enum  // an enum constant enum.Values[index]
	index int
	fn    string // an external function returning t
	t     expr.Type
}

// NewContext makes a context.
func NewContext() (*Context, error) {
	z := newZ3Context()
	if z == nil {
		return nil, fmt.Errorf("solver: cannot create a Z3 context")
	}
	c := &Context{
		z:       z,
		idents:  make(map[identKey]C.Z3_ast),
		enums:   make(map[*expr.Enum]*enumSort),
		funcs:   make(map[string]C.Z3_func_decl),
		decls:   make(map[uint32]declInfo),
		tactics: make(map[string]C.Z3_tactic),
	}
	for _, s := range []struct {
		p  *C.Z3_sort
		mk func() C.Z3_sort
	}{
		{&c.intSort, func() C.Z3_sort { return C.Z3_mk_int_sort(c.z) }},
		{&c.realSort, func() C.Z3_sort { return C.Z3_mk_real_sort(c.z) }},
		{&c.boolSort, func() C.Z3_sort { return C.Z3_mk_bool_sort(c.z) }},
	} {
		srt := s.mk()
		if _, err := c.keep(sortAST(c.z, srt), "make sort"); err != nil {
			c.Close()
			return nil, err
		}
		*s.p = srt
	}
	return c, nil
}

// Close releases the context and everything made in it; solvers made
// by it stop working. Close is idempotent.
func (c *Context) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	// Deleting the context frees every object in it, referenced or not.
	C.Z3_del_context(c.z)
	c.z = nil
	c.scratch = nil
	c.idents, c.enums, c.funcs, c.decls, c.tactics = nil, nil, nil, nil, nil
	c.oneShot = nil
	c.drainer = nil
}

// SetTimeout limits each later check (and each tactic application) to d;
// 0 means no limit. A check that runs out of time answers Unknown. The
// limit is kept by Z3's resource limit, set to the work Z3 does in about
// d on an idle machine, so that the answer does not depend on the load
// (rlimit.go), and by a Go-side watchdog at backstopFactor times d
// (watchdog.go) for the work Z3 does not count.
func (c *Context) SetTimeout(d time.Duration) {
	if d <= 0 {
		c.timeout = 0
		c.setRlimit(0)
		return
	}
	ms := d.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	if ms > 1<<31 {
		ms = 1 << 31
	}
	c.timeout = uint(ms)
	c.setRlimit(rlimitFor(c.timeout))
}

// Interrupt stops the check or tactic running in c, which then answers
// Unknown (or fails). It is the only method that may be called from
// another goroutine. It does nothing when c is idle or closed: in Z3
// 4.8.12 an interrupt that arrives while no check runs stays pending and
// makes every later call of the context fail with "canceled".
func (c *Context) Interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed && c.busy {
		c.interrupted = true
		C.Z3_interrupt(c.z)
	}
}

func (c *Context) usable() error {
	if c == nil || c.z == nil {
		return errClosed
	}
	return nil
}

// sort returns the Z3 sort of t.
func (c *Context) sort(t expr.Type) (C.Z3_sort, error) {
	switch t.Kind {
	case expr.Int:
		return c.intSort, nil
	case expr.Real:
		return c.realSort, nil
	case expr.Bool:
		return c.boolSort, nil
	case expr.EnumKind:
		es, err := c.enum(t.Enum)
		if err != nil {
			return nil, err
		}
		return es.sort, nil
	case expr.Str:
		return c.stringSort()
	}
	return nil, fmt.Errorf("solver: invalid type")
}

// enum returns the enumeration sort of e, making it on first use.
func (c *Context) enum(e *expr.Enum) (*enumSort, error) {
	if e == nil {
		return nil, fmt.Errorf("solver: enum type without declaration")
	}
	if es, ok := c.enums[e]; ok {
		return es, nil
	}
	n := len(e.Values)
	if n == 0 {
		return nil, fmt.Errorf("solver: enum %s has no constants", e.Name)
	}
	seen := make(map[string]bool, n)
	names := make([]C.Z3_symbol, n)
	for i, v := range e.Values {
		if seen[v] {
			return nil, fmt.Errorf("solver: enum %s repeats constant %s", e.Name, v)
		}
		seen[v] = true
		names[i] = c.symbol(v)
	}
	consts := make([]C.Z3_func_decl, n)
	testers := make([]C.Z3_func_decl, n)
	// Distinct *expr.Enum values may share a name; the counter keeps
	// their sorts apart.
	c.nsorts++
	sym := c.symbol(fmt.Sprintf("%s#%d", e.Name, c.nsorts))
	s := C.Z3_mk_enumeration_sort(c.z, sym, C.uint(n), &names[0], &consts[0], &testers[0])
	if _, err := c.keep(sortAST(c.z, s), "make enumeration sort "+e.Name); err != nil {
		return nil, err
	}
	es := &enumSort{sort: s, consts: make([]C.Z3_ast, n)}
	for i, d := range consts {
		if _, err := c.keep(declAST(c.z, d), "enum constant"); err != nil {
			return nil, err
		}
		a, err := c.keep(C.Z3_mk_app(c.z, d, 0, nil), "enum constant")
		if err != nil {
			return nil, err
		}
		es.consts[i] = a
		c.decls[uint32(C.Z3_get_func_decl_id(c.z, d))] = declInfo{enum: e, index: i, t: expr.EnumType(e)}
	}
	c.enums[e] = es
	return es, nil
}

// ident returns the constant standing for id.
func (c *Context) ident(id *expr.Ident) (C.Z3_ast, error) {
	k := identKey{id.Kind, id.Name, id.T}
	if a, ok := c.idents[k]; ok {
		return a, nil
	}
	s, err := c.sort(id.T)
	if err != nil {
		return nil, fmt.Errorf("solver: identifier %s: %v", id.Name, err)
	}
	// The prefix keeps a variable and a parameter of the same name (and
	// sort) apart; Z3 would otherwise make them one constant.
	prefix := "v:"
	if id.Kind == expr.ParamIdent {
		prefix = "p:"
	}
	a, err := c.keep(C.Z3_mk_const(c.z, c.symbol(prefix+id.Name), s), "make constant "+id.Name)
	if err != nil {
		return nil, err
	}
	d := C.Z3_get_app_decl(c.z, C.Z3_to_app(c.z, a))
	c.decls[uint32(C.Z3_get_func_decl_id(c.z, d))] = declInfo{ident: id, t: id.T}
	c.idents[k] = a
	return a, nil
}

// function returns the uninterpreted function for an external function
// of the given signature. Functions are keyed by name and signature, so
// a model that declares a function once always gets the same one.
func (c *Context) function(name string, params []expr.Type, result expr.Type) (C.Z3_func_decl, error) {
	key := name + "("
	for i, p := range params {
		if i > 0 {
			key += ","
		}
		key += typeKey(p)
	}
	key += ")" + typeKey(result)
	if f, ok := c.funcs[key]; ok {
		return f, nil
	}
	dom := make([]C.Z3_sort, len(params)+1) // +1: never empty
	for i, p := range params {
		s, err := c.sort(p)
		if err != nil {
			return nil, fmt.Errorf("solver: argument %d of %s: %v", i+1, name, err)
		}
		dom[i] = s
	}
	rng, err := c.sort(result)
	if err != nil {
		return nil, fmt.Errorf("solver: result of %s: %v", name, err)
	}
	f := C.Z3_mk_func_decl(c.z, c.symbol("f:"+name), C.uint(len(params)), &dom[0], rng)
	if f == nil {
		return nil, c.lastError("declare function " + name)
	}
	if _, err := c.keep(declAST(c.z, f), "declare function "+name); err != nil {
		return nil, err
	}
	c.decls[uint32(C.Z3_get_func_decl_id(c.z, f))] = declInfo{fn: name, t: result}
	c.funcs[key] = f
	return f, nil
}

// typeKey names a type uniquely within the process (enums by identity).
func typeKey(t expr.Type) string {
	if t.Kind == expr.EnumKind && t.Enum != nil {
		return fmt.Sprintf("%s@%p", t.Enum.Name, t.Enum)
	}
	return t.String()
}
