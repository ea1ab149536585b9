package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"math"

	"github.com/stg-tool/stg/spec/expr"
)

// The time limit of SetTimeout is kept first by Z3's resource limit
// ("rlimit"), which counts work rather than time: a question gets the
// same answer on a loaded machine as on an idle one, and a verdict that
// hangs on a limit is reproducible. The limit is the time limit times
// rlimitPerMs, the units Z3 4.8.12 spends per millisecond of processor
// time, so that it stops a check after about the time limit on an idle
// machine. The watchdog (watchdog.go) stays as a backstop, at
// backstopFactor times the time limit, for the work Z3 does not count.
//
// Z3 4.8.12 does not count the work of nonlinear integer arithmetic:
// bounded by the resource limit alone, "is 33 a sum of three cubes"
// (online's testdata/cubes.yaml) ran for minutes on a limit worth 300
// ms. So a question with nonlinear arithmetic (uncounted) keeps the
// watchdog at the time limit itself, as before the resource limit.
//
// rlimitPerMs comes from TestRlimitRate (STG_LONG=1 go test ./solver
// -run TestRlimitRate -v) on this project's 2-core AMD EPYC machine.
// Idle (load 0.7, processor time equal to wall time), 8 arithmetic and
// string questions spent 363k to 1.93M units per second, median 1.44M;
// the three that ran for seconds, the kind a limit stops, 363k, 647k and
// 1.06M. At load 11 to 14 (shared) the median was 791k. The constant
// sits between: on an idle machine the resource limit stops a question
// between 0.4 and 2.2 times the time limit, depending on the question.
const rlimitPerMs = 800

// backstopFactor: the watchdog stops a counted check at this many times
// the time limit, when the resource limit has not stopped it first. The
// slowest question measured runs 2.2 times the time limit on an idle
// machine before the resource limit stops it, so an idle machine, and
// mostly one with two busy loops beside stg, stays under it; a machine
// loaded several times over its cores may reach it, and then the answer
// depends on the load as it did before the resource limit.
const backstopFactor = 5

// uncounted reports whether e holds arithmetic whose work Z3 does not
// count against the resource limit: a product of two non-constants, or
// a division or remainder by a non-constant.
func uncounted(e expr.Expr) (found bool) {
	defer func() {
		if recover() != nil { // a malformed tree: encoding reports it
			found = false
		}
	}()
	constant := func(x expr.Expr) bool { _, ok := expr.ConstValue(x); return ok }
	expr.Inspect(e, func(x expr.Expr) {
		b, ok := x.(*expr.Binary)
		if !ok || b == nil {
			return
		}
		switch b.Op {
		case expr.Mul:
			found = found || !(constant(b.X) || constant(b.Y))
		case expr.Div, expr.Mod:
			found = found || !constant(b.Y)
		}
	})
	return found
}

// rlimitFor returns the resource limit for a time limit of ms
// milliseconds; 0 (none) when it would not fit Z3's 32-bit parameter
// (a limit of about 90 minutes), which leaves the watchdog alone.
func rlimitFor(ms uint) uint32 {
	n := uint64(ms) * rlimitPerMs
	if n > math.MaxUint32 {
		return 0
	}
	return uint32(n)
}

// setRlimit sets Z3's resource limit of each later check and tactic.
func (c *Context) setRlimit(n uint32) {
	c.rlimit = n
	if c.z == nil {
		return
	}
	C.stg_set_rlimit(c.z, C.uint(n))
	_ = c.failed("set rlimit")
}

// rlimitCount returns the resource units the context has used, as its
// solver s reports them; for TestRlimitRate (reading them in every check
// would make Z3 build terms, which shifts the order of Simplify's
// results).
func (s *Solver) rlimitCount() uint64 { return uint64(C.stg_solver_rlimit(s.c.z, s.s)) }
