package play

import (
	"context"
	"errors"
	"math/big"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// Shrinking cuts a failing run down to a shorter stimulus sequence with
// smaller values that still fails the same way, as property-based
// testing tools do. It plays every candidate against a fresh SUT with an
// adapting replay (Runner.Replay): a candidate is only ever a run the
// test case allows, each stimulus enabled where it is sent, its values
// solved afresh when the earlier stimuli changed what the guard allows.
//
// The stimuli are cut by delta debugging (Zeller and Hildebrandt,
// "Simplifying and isolating failure-inducing input", TSE 2002: ddmin,
// removing ever smaller chunks), then each parameter value is moved
// toward 0 (false, the first enumeration constant, the empty string):
// first to the value the guard allows closest to 0, solved with Z3, then
// by bisection between it and the value that fails. When values shrank,
// the stimuli are cut again. Candidates are kept only when they fail the
// same way and are smaller: fewer stimuli, or as many with smaller values.

// DefaultShrinkRuns is the budget of candidate runs of a shrinking.
const DefaultShrinkRuns = 100

// Shrunk is the outcome of a shrinking.
type Shrunk struct {
	// Result is the replay of the smallest failing script found (the
	// original run's replay when nothing smaller failed), nil when the
	// failure did not reproduce.
	Result *Result
	Script Script // its stimuli
	From   int    // the stimuli of the original run
	Tried  int    // candidate runs played, the replay of the original first
	// Reproduced says whether replaying the original stimuli failed the
	// same way; when not, nothing was shrunk.
	Reproduced bool
}

// failure is how a run failed: the kind and action of the observation
// that failed, and whether no transition accepted it (an unspecified
// output) or one led to Fail.
type failure struct {
	kind        StepKind
	action      string
	unspecified bool
}

func failureOf(res *Result) (failure, bool) {
	if res == nil || res.Verdict != Fail || len(res.Trace) == 0 {
		return failure{}, false
	}
	last := res.Trace[len(res.Trace)-1]
	return failure{last.Kind, last.Action, last.Transition == ""}, true
}

// SameFailure reports whether b fails the way a does: Fail on an
// observation of the same action, both unspecified outputs or both
// leading to Fail by a transition (the values may differ).
func SameFailure(a, b *Result) bool {
	fa, okA := failureOf(a)
	fb, okB := failureOf(b)
	return okA && okB && fa == fb
}

// Shrink shrinks the failing run failed, playing at most budget
// candidates (DefaultShrinkRuns when budget <= 0), each against a SUT
// started with start. An error is a SUT that could not be started or
// talked to, or a cancelled ctx.
func (e *Engine) Shrink(ctx context.Context, start adapter.Starter, failed *Result, budget int) (*Shrunk, error) {
	if budget <= 0 {
		budget = DefaultShrinkRuns
	}
	k := &shrinker{ctx: ctx, e: e, start: start, budget: budget, want: failed}
	orig := ScriptOf(failed.Trace)
	k.script = orig
	sh := &Shrunk{From: len(orig)}
	ok, err := k.test(orig, true)
	sh.Tried = k.tried
	if err != nil || !ok {
		return sh, err
	}
	sh.Reproduced = true
	for round := 0; round < 2; round++ {
		if err := k.ddmin(); err != nil {
			return k.done(sh), err
		}
		changed, err := k.values()
		if err != nil || !changed {
			return k.done(sh), err
		}
	}
	return k.done(sh), nil
}

type shrinker struct {
	ctx    context.Context
	e      *Engine
	start  adapter.Starter
	budget int
	tried  int
	want   *Result // the failing run

	script Script  // the smallest failing script so far
	best   *Result // its replay
}

func (k *shrinker) done(sh *Shrunk) *Shrunk {
	sh.Result, sh.Script, sh.Tried = k.best, k.script, k.tried
	return sh
}

// test plays the candidate sc; it is kept (true) when it fails the same
// way and what was played is smaller than the script so far (or first,
// the original's replay).
func (k *shrinker) test(sc Script, first bool) (bool, error) {
	if k.tried >= k.budget {
		return false, nil
	}
	k.tried++
	res, err := ReplayOnce(k.ctx, k.e, k.start, sc, true)
	var se *StimulusError
	switch {
	case errors.As(err, &se):
		return false, nil // not a run the test case allows
	case err != nil:
		return false, err
	case !SameFailure(k.want, res):
		return false, nil
	}
	played := ScriptOf(res.Trace)
	if !first && !smaller(played, k.script) {
		return false, nil
	}
	k.script, k.best = played, res
	return true, nil
}

// ddmin removes chunks of stimuli, halving their size when no chunk can
// go (complements of ddmin; the script shrinks by every success).
func (k *shrinker) ddmin() error {
	n := 2
	for k.tried < k.budget && len(k.script) > 0 {
		if len(k.script) == 1 {
			_, err := k.test(Script{}, false)
			return err
		}
		n = min(n, len(k.script))
		removed := false
		for i := 0; i < n && !removed; i++ {
			lo, hi := i*len(k.script)/n, (i+1)*len(k.script)/n
			cand := append(append(Script{}, k.script[:lo]...), k.script[hi:]...)
			ok, err := k.test(cand, false)
			if err != nil {
				return err
			}
			removed = ok
		}
		switch {
		case removed:
			n = max(n-1, 2)
		case n >= len(k.script):
			return nil
		default:
			n = min(2*n, len(k.script))
		}
	}
	return nil
}

// values moves each parameter value toward its type's zero; changed
// reports whether one moved.
func (k *shrinker) values() (changed bool, err error) {
	for i := 0; i < len(k.script); i++ {
		a := k.e.route.Stimulus(k.script[i].Action)
		if a == nil {
			continue
		}
		for _, p := range a.Params {
			if i >= len(k.script) || k.tried >= k.budget {
				return changed, nil
			}
			moved, err := k.value(i, p.Name)
			if err != nil {
				return changed, err
			}
			changed = changed || moved
		}
	}
	return changed, nil
}

// value shrinks parameter p of stimulus i: toward zero, then by
// bisection between zero and the failing value.
func (k *shrinker) value(i int, p string) (bool, error) {
	cur, ok := k.script[i].Args[p]
	if !ok {
		return false, nil
	}
	zero := zeroOf(cur.T)
	if !zero.IsValid() || cur.Equal(zero) {
		return false, nil
	}
	try := func(target expr.Value) (bool, error) {
		cand := append(Script{}, k.script...)
		cand[i].Toward, cand[i].Target = p, target
		return k.test(cand, false)
	}
	ok, err := try(zero)
	if err != nil || ok || cur.T.Kind != expr.Int {
		return ok, err
	}
	// Bisection on integers: lo does not fail (as a target), hi does.
	moved := false
	lo, hi := new(big.Int), new(big.Int).Set(cur.Int)
	for k.tried < k.budget && i < len(k.script) {
		d := new(big.Int).Sub(hi, lo)
		if d.CmpAbs(big.NewInt(1)) <= 0 {
			break
		}
		mid := new(big.Int).Add(lo, new(big.Int).Quo(d, big.NewInt(2)))
		ok, err := try(expr.IntValue(mid))
		if err != nil {
			return moved, err
		}
		if !ok {
			lo = mid
			continue
		}
		moved = true
		v, has := k.script[i].Args[p]
		if !has || v.T.Kind != expr.Int {
			break
		}
		hi.Set(v.Int)
	}
	return moved, nil
}

// zeroOf returns the value shrinking aims at for type t.
func zeroOf(t expr.Type) expr.Value {
	switch t.Kind {
	case expr.Int:
		return expr.IntValue(new(big.Int))
	case expr.Real:
		return expr.RatValue(new(big.Rat))
	case expr.Bool:
		return expr.BoolValue(false)
	case expr.EnumKind:
		return expr.Value{T: t, Enum: 0}
	case expr.Str:
		return expr.Value{T: t}
	}
	return expr.Value{}
}

// smaller orders scripts: fewer stimuli, or as many with a smaller sum of
// value sizes.
func smaller(a, b Script) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return size(a).Cmp(size(b)) < 0
}

// size sums the magnitudes of a script's values: |n| for numbers, 1 for
// true, the index of an enumeration constant, the length of a string.
func size(sc Script) *big.Rat {
	sum := new(big.Rat)
	for _, st := range sc {
		for _, v := range st.Args {
			switch v.T.Kind {
			case expr.Int:
				sum.Add(sum, new(big.Rat).SetInt(new(big.Int).Abs(v.Int)))
			case expr.Real:
				sum.Add(sum, new(big.Rat).Abs(v.Rat))
			case expr.Bool:
				if v.Bool {
					sum.Add(sum, big.NewRat(1, 1))
				}
			case expr.EnumKind:
				sum.Add(sum, big.NewRat(int64(v.Enum), 1))
			case expr.Str:
				sum.Add(sum, big.NewRat(int64(len(v.Str)), 1))
			}
		}
	}
	return sum
}
