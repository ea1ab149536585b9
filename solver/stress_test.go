package solver

import (
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/spec/expr"
)

// stressFor runs TestStress for a duration rather than a number of
// queries: go test ./solver -run TestStress -stress 5m.
var stressFor = flag.Duration("stress", 0, "run TestStress for this long (0: a number of queries, more with STG_LONG=1)")

// stressQueries are string and regular expression questions like the
// guards of examples/lucky and of the echo specs, some easy, some that
// Z3 4.8.12 takes seconds on, so that short limits stop many of them.
var stressQueries = []string{
	`regexp.MatchString("^[A-Z][a-z]*$", s) && regexp.MatchString("^[A-Z][a-z]*$", t) && s[0:1] == t[0:1] && s != t`,
	`regexp.MatchString("^[A-Z][a-z]*$", s) && !regexp.MatchString("^[A-Z][a-z]*$", t) && len(t) > 2`,
	`!regexp.MatchString("^[A-Z][a-z]*$", s) || !regexp.MatchString("^[A-Z][a-z]*$", t)`,
	`len(s) == 7 && strings.Contains(s + t, "abcab") && !strings.HasPrefix(t, "a") && regexp.MatchString("^(ab|c)+x?$", s)`,
	`regexp.MatchString("^[a-z]{3,8}@[a-z]+\\.(com|org)$", s) && strings.HasSuffix(s, "x.org") && len(s) < 11`,
	`s + t == t + s && len(s) == 3 && len(t) == 5 && s != t`,
	`strings.Index(s, t) == 2 && len(t) > 1 && regexp.MatchString("^(ab)*$", s)`,
	`s < t && t < s + "a" && len(s) > 4 && regexp.MatchString("[0-9]", s)`,
	`regexp.MatchString("^\\d{2,3}-\\d{4}$", s) && !regexp.MatchString("7", s) && s[0:2] == t && t > "42"`,
	`strings.Contains(s, t) && strings.Contains(t, "aba") && !strings.Contains(s, "abab") && len(s) < 9`,
}

// stressCase is one question of the stress test, parsed.
type stressCase struct {
	src string
	e   expr.Expr
}

// stressCases parses stressQueries and adds random predicates of the
// string generator of strings_test.go.
func stressCases(t *testing.T, n int) []stressCase {
	var cs []stressCase
	for _, src := range stressQueries {
		cs = append(cs, stressCase{src, parseIn(t, strScope, src)})
	}
	for n := 4; n <= 8; n++ { // arithmetic: Simplify runs ctx-solver-simplify
		e := pigeons(t, n)
		cs = append(cs, stressCase{expr.Format(e), e})
	}
	g := strGen{rand.New(rand.NewSource(11))}
	for range n {
		src := g.pred(3)
		cs = append(cs, stressCase{src, parseIn(t, strScope, src)})
	}
	return cs
}

// answers records the definite answers of the stress test, which must
// agree across contexts and limits.
type answers struct {
	mu  sync.Mutex
	sat map[string]Result
}

func (a *answers) agree(src string, r Result) error {
	if r == Unknown {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if prev, ok := a.sat[src]; ok && prev != r {
		return fmt.Errorf("%s: %v, and %v before", src, r, prev)
	}
	a.sat[src] = r
	return nil
}

// TestStress asks string and regular expression questions in parallel
// contexts (as stg run's shards do) under short and varied limits, so
// that the limits stop many checks and tactics at arbitrary points.
// Every definite answer must agree with the others, every model must
// satisfy its predicate, and the only errors allowed are ErrUnknown.
// It is the reproduction of Z3 crashing under load: run it with two busy
// loops beside it, with -race, with GOGC=10 and GOTRACEBACK=crash.
func TestStress(t *testing.T) {
	workers := testlong.Runs(2, 4)
	perWorker := testlong.Runs(40, 400)
	cases := stressCases(t, 30)
	deadline := time.Time{}
	if *stressFor > 0 {
		deadline = time.Now().Add(*stressFor)
		perWorker = 1 << 30
	}
	limits := []time.Duration{time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond}
	all := &answers{sat: make(map[string]Result)}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	counts := make([]stressCount, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(w)))
			errs <- stressWorker(r, cases, limits, all, perWorker, deadline, &counts[w])
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	var sum stressCount
	for _, c := range counts {
		sum.queries += c.queries
		sum.unknown += c.unknown
	}
	t.Logf("%d workers, %d questions, %d unknown (stopped by a limit or undecided)", workers, sum.queries, sum.unknown)
}

type stressCount struct{ queries, unknown int }

// stressWorker asks questions in its own context until it has asked n
// or the deadline (if any) has passed.
func stressWorker(r *rand.Rand, cases []stressCase, limits []time.Duration, all *answers, n int, deadline time.Time, count *stressCount) error {
	c, err := NewContext()
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetMemo(false)
	inc := c.NewSolver() // one incremental solver for the worker's life
	defer inc.Close()
	for i := 0; i < n && (deadline.IsZero() || time.Now().Before(deadline)); i++ {
		c.SetTimeout(limits[r.Intn(len(limits))])
		q := cases[r.Intn(len(cases))]
		res, err := stressAsk(c, inc, r.Intn(4), q)
		count.queries++
		if errors.Is(err, ErrUnknown) {
			count.unknown++
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %v", q.src, err)
		}
		if err := all.agree(q.src, res); err != nil {
			return err
		}
	}
	return nil
}

// stressAsk asks one question about q: whether it is satisfiable (as a
// one-shot question, a model, or in a scope of the incremental solver
// inc), or a simplification. It returns the satisfiability found, or
// Unknown.
func stressAsk(c *Context, inc *Solver, kind int, q stressCase) (Result, error) {
	switch kind {
	case 0:
		return c.Sat(q.e)
	case 1:
		val, ok, err := c.Model(q.e)
		if err != nil || !ok {
			return map[bool]Result{true: Unknown, false: Unsat}[err != nil], err
		}
		if holds, err := expr.EvalBool(q.e, val); err != nil || !holds {
			return Unknown, fmt.Errorf("model %v does not satisfy it (%v)", val.Vars, err)
		}
		return Sat, nil
	case 2:
		inc.Push()
		defer inc.Pop(1)
		if err := inc.Assert(q.e); err != nil {
			return Unknown, err
		}
		r, err := inc.Check()
		if err == nil && r == Unknown {
			err = ErrUnknown
		}
		return r, err
	}
	_, err := c.Simplify(q.e)
	return Unknown, err
}
