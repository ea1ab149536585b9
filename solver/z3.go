package solver

/*
#cgo LDFLAGS: -lz3
#include "z3glue.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// z3Error is a failure reported by Z3 through its error code.
type z3Error struct {
	op   string
	code int
	msg  string
}

func (e *z3Error) Error() string {
	return fmt.Sprintf("solver: %s: Z3 error %d: %s", e.op, e.code, e.msg)
}

var errClosed = errors.New("solver: context is closed")

// lastError reads Z3's error state; it must run right after the failing
// call, since the next API call resets it.
func (c *Context) lastError(op string) error {
	code := C.Z3_get_error_code(c.z)
	if code == C.Z3_OK {
		return &z3Error{op: op, code: 0, msg: "no result"}
	}
	return &z3Error{op: op, code: int(code), msg: C.GoString(C.Z3_get_error_msg(c.z, code))}
}

// failed reports the error of the last call, if any.
func (c *Context) failed(op string) error {
	if code := C.Z3_get_error_code(c.z); code != C.Z3_OK {
		return &z3Error{op: op, code: int(code), msg: C.GoString(C.Z3_get_error_msg(c.z, code))}
	}
	return nil
}

// temp takes a reference to a freshly made AST and records it in the
// context's scratch list, released at the end of the current operation.
// In a _rc context an unreferenced result may be freed by the next call,
// so every constructor's result goes through temp or keep at once.
func (c *Context) temp(a C.Z3_ast, op string) (C.Z3_ast, error) {
	if a == nil {
		return nil, c.lastError(op)
	}
	C.Z3_inc_ref(c.z, a)
	c.refs++
	c.scratch = append(c.scratch, a)
	return a, nil
}

// keep takes a reference that lives as long as the context (caches).
func (c *Context) keep(a C.Z3_ast, op string) (C.Z3_ast, error) {
	if a == nil {
		return nil, c.lastError(op)
	}
	C.Z3_inc_ref(c.z, a)
	c.refs++
	return a, nil
}

// mark returns the current scratch position; release(m) drops every
// reference taken since.
func (c *Context) mark() int { return len(c.scratch) }

func (c *Context) release(m int) {
	n := len(c.scratch) - m
	if n <= 0 || c.z == nil {
		c.scratch = c.scratch[:m]
		return
	}
	C.stg_dec_refs(c.z, &c.scratch[m], C.size_t(n))
	c.refs -= n
	clear(c.scratch[m:])
	c.scratch = c.scratch[:m]
}

func newZ3Context() C.Z3_context { return C.stg_mk_context() }

func sortAST(c C.Z3_context, s C.Z3_sort) C.Z3_ast { return C.Z3_sort_to_ast(c, s) }

func declAST(c C.Z3_context, d C.Z3_func_decl) C.Z3_ast { return C.Z3_func_decl_to_ast(c, d) }

// symbol makes a string symbol; Z3 copies the name.
func (c *Context) symbol(name string) C.Z3_symbol {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.Z3_mk_string_symbol(c.z, cs)
}

// estimatedAlloc returns Z3's own estimate of the memory it has allocated
// (all contexts), in bytes.
func estimatedAlloc() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }
