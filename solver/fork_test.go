package solver

import (
	"sync"
	"testing"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

// TestFork: a fork answers under its parent's facts and limits, in a
// goroutine of its own while the parent answers in another, and Join
// adds its counts to the parent's.
func TestFork(t *testing.T) {
	c := newContext(t)
	c.SetTimeout(3 * time.Second)
	x := expr.VarRef("x", expr.IntType)
	call := func(arg expr.Expr) expr.Expr {
		return &expr.Call{Func: "F", Args: []expr.Expr{arg}, T: expr.IntType}
	}
	if err := c.SetFacts(expr.Compare(expr.Eq, call(expr.IntConst(123)), expr.IntConst(228))); err != nil {
		t.Fatal(err)
	}
	low := expr.AndOf(expr.Compare(expr.Eq, x, expr.IntConst(123)), expr.Compare(expr.Le, call(x), expr.IntConst(200)))
	f, err := c.Fork()
	if err != nil {
		t.Fatal(err)
	}
	if f.timeout != c.timeout || f.rlimit != c.rlimit || !expr.Equal(f.Facts(), c.Facts()) {
		t.Fatalf("fork: timeout %d, rlimit %d, facts %v; parent %d, %d, %v", f.timeout, f.rlimit, f.Facts(), c.timeout, c.rlimit, c.Facts())
	}
	before := c.Stats()
	var wg sync.WaitGroup
	results := make([]Result, 2)
	for i, ctx := range []*Context{c, f} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				y := expr.Compare(expr.Gt, x, expr.IntConst(int64(k)))
				if _, err := ctx.Sat(expr.AndOf(low, y)); err != nil {
					t.Error(err)
				}
			}
			results[i], _ = ctx.Sat(low)
		}()
	}
	wg.Wait()
	if results[0] != Unsat || results[1] != Unsat {
		t.Fatalf("under the facts: parent %v, fork %v; want unsat for both", results[0], results[1])
	}
	forkChecks := f.Stats().Checks
	c.Join(f)
	if got := c.Stats().Sub(before).Checks; got < 2*forkChecks || forkChecks == 0 {
		t.Errorf("after Join the parent counts %d checks since the fork, the fork %d", got, forkChecks)
	}
	if _, err := f.Sat(low); err == nil {
		t.Error("a joined fork still answers")
	}
}
