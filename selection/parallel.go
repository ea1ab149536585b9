package selection

import (
	"sync"

	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// Select's questions are independent from one transition to the next:
// on a large product they are shared among workers that run at once,
// each with a decider of its own over a solver context of its own
// (solver.Context.Fork; the first worker uses the caller's). A worker
// owns the locations of a contiguous run of the product's sources, so
// that its caches see the questions of neighbouring locations, which
// repeat; it decides their transitions and then their groups' readable
// guards. The answers are placed by index and read in the product's
// order.
//
// The number of workers depends on the product alone, never on the
// machine: a guard that Z3 simplifies may come out with its conjuncts
// in another order in another context (Z3 orders them by the identities
// of its terms, which depend on what the context made before), so the
// test case is a function of its input only when each context sees the
// same questions in the same order. One worker and several give
// equivalent guards (TestSelectWorkersEquivalent), and the same workers
// give the same bytes however the goroutines are scheduled.

// parallelFrom is the number of product transitions from which Select
// shares the work: below it, forking solver contexts costs more than
// the work saved.
const parallelFrom = 2000

// largeWorkers is the number of workers on a product of parallelFrom
// transitions or more.
const largeWorkers = 2

// workers holds the deciders of one Select and the worker that owns
// each source location.
type workers struct {
	ctx   *solver.Context
	forks []*solver.Context
	ds    []*decider
	owner map[string]int
}

// workersFor returns the number of workers of Select on p.
func workersFor(p *product.Product) int {
	if len(p.Transitions) < parallelFrom {
		return 1
	}
	return largeWorkers
}

// newWorkers makes n workers for Select on p, the first with the
// decider over ctx, the others over forks of it.
func newWorkers(ctx *solver.Context, p *product.Product, n int) (*workers, error) {
	ws := &workers{ctx: ctx, owner: owners(p.Transitions, n)}
	ids := dataOf(p)
	ws.ds = append(ws.ds, newDecider(ctx, ids))
	for i := 1; i < n; i++ {
		f, err := ctx.Fork()
		if err != nil {
			ws.close()
			return nil, err
		}
		ws.forks = append(ws.forks, f)
		ws.ds = append(ws.ds, newDecider(f, ids))
	}
	return ws, nil
}

// owners shares the source locations of ts, in the order of their first
// transitions, among n workers in contiguous runs of about equal numbers
// of transitions.
func owners(ts []*spec.Transition, n int) map[string]int {
	count := map[string]int{}
	var order []string
	for _, t := range ts {
		if count[t.From] == 0 {
			order = append(order, t.From)
		}
		count[t.From]++
	}
	owner := make(map[string]int, len(order))
	done := 0
	for _, l := range order {
		owner[l] = min(done*n/max(len(ts), 1), n-1)
		done += count[l]
	}
	return owner
}

// close adds the forks' counts to the caller's context and closes them.
func (ws *workers) close() {
	for _, f := range ws.forks {
		ws.ctx.Join(f)
	}
	ws.forks = nil
}

// each runs do(w, i) for every item i of n whose source location is
// owned by worker w (from gives it), the workers at once. The error is
// that of the first failing item in index order.
func (ws *workers) each(n int, from func(i int) string, do func(d *decider, i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for w, d := range ws.ds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				if ws.owner[from(i)] == w {
					errs[i] = do(d, i)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// keep returns what the test case keeps of each product transition
// (decide), in the product's order.
func (ws *workers) keep(p *product.Product, a *coreach.Result) ([]*spec.Transition, error) {
	ts := p.Transitions
	parts := make([][]*spec.Transition, len(ts))
	err := ws.each(len(ts), func(i int) string { return ts[i].From }, func(d *decider, i int) error {
		var err error
		parts[i], err = decide(d, p, a, ts[i])
		return err
	})
	return flatten(parts), err
}

// readable simplifies the guards of ts group by group (readableGroup),
// the groups in the order of their first transitions.
func (ws *workers) readable(m *spec.Model, ts []*spec.Transition, a *coreach.Result) ([]*spec.Transition, error) {
	groups := groupsOf(ts)
	parts := make([][]*spec.Transition, len(groups))
	err := ws.each(len(groups), func(i int) string { return groups[i][0].From }, func(d *decider, i int) error {
		var err error
		parts[i], err = readableGroup(d, m, groups[i], a)
		return err
	})
	return flatten(parts), err
}

func flatten(parts [][]*spec.Transition) []*spec.Transition {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]*spec.Transition, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
