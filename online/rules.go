package online

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// A Verdict is the outcome of a test run (§4.3): the play engine's.
type Verdict = play.Verdict

// The verdicts of the rules.
const (
	None     = play.None     // no verdict yet
	Pass     = play.Pass     // rule 4: only accept nodes explain the run
	Fail     = play.Fail     // rule 2: no node of the spec explains the last output
	Inconc   = play.Inconc   // rule 3: the output is specified, but no accept node is reachable any more
	WeakPass = play.WeakPass // rule 5: an accept node explains the run, and so does another node
)

// Overall returns the verdict of several runs: Fail if any failed, else
// Pass if any passed, else WeakPass if any gave it, else Inconc (None
// when there are no verdicts).
func Overall(vs ...Verdict) Verdict { return play.Overall(vs...) }

// A Rule is one of the inference rules 0-6 of §4.3.
type Rule int

// NoRule marks a stimulation that rule 6 does not allow (NextSkip is
// empty): the tester never sends one, and a recorded trace that holds
// one ends Inconc there.
const NoRule Rule = -1

func (r Rule) String() string {
	switch r {
	case NoRule:
		return "no rule"
	case Observing:
		return "observing"
	}
	return fmt.Sprintf("rule %d", int(r))
}

// A Step is the application of a rule to an event: the successors of
// the contexts by the event (Defs. 15 and 17), the rule that applies,
// and its result: the new set of contexts (rules 1 and 6) or a verdict.
type Step struct {
	Event                    Event
	Rule                     Rule
	Next, NextSkip, NextPass []Context
	// SC is the set of contexts after the step: Next closed under
	// internal transitions (rules 1 and 6); nil after a verdict.
	SC      []Context
	Verdict Verdict
	Reason  string
	// Undecided counts the solver queries of the step that could not
	// be decided; each counted as satisfiable.
	Undecided int
	// InFlight counts the stimuli sent that the SUT may not have
	// consumed when it emitted the observed output (queue.go): the sets
	// are then unions over the prefixes of them it may have consumed.
	// 0: the paper's rules on SC as they are.
	InFlight int
}

// DefaultMaxContexts bounds a set of contexts (Tester.MaxContexts).
const DefaultMaxContexts = 4096

// A Tester applies the inference rules of a symbolic purpose. It uses
// the solver context of the purpose's Executor, which it is given: use
// it from one goroutine at a time.
type Tester struct {
	z  *solver.Context
	tp *Purpose
	// MaxContexts bounds the set of contexts; a step whose set would be
	// larger ends Inconc (the tester never drops a context, which could
	// make a later Fail false).
	MaxContexts int
	// Funcs evaluates the spec's external functions (nil: calls stay
	// uninterpreted, so that nothing depending on their values is
	// decided). The tree is built with calls uninterpreted, an
	// over-approximation; a call whose arguments the events have made
	// constant is evaluated exactly, and the solver is told the rows of
	// the tables (facts of the functions) for the others. A call that
	// cannot be evaluated is an error of the run, never a verdict.
	Funcs *extfunc.Registry
}

// NewTester returns a tester for tp; z must be the solver context of
// tp's Executor.
func NewTester(z *solver.Context, tp *Purpose) *Tester {
	return &Tester{z: z, tp: tp, MaxContexts: DefaultMaxContexts}
}

// Purpose returns the purpose t tests.
func (t *Tester) Purpose() *Purpose { return t.tp }

// Start returns SC0 = {(init, true)} (rule 0), closed under internal
// transitions.
func (t *Tester) Start() ([]Context, error) {
	sc, err := t.closure([]Context{{Node: t.tp.root}})
	if errors.Is(err, errTooMany) {
		return nil, fmt.Errorf("more than %d contexts after internal transitions from the initial state", t.MaxContexts)
	}
	return sc, err
}

var errTooMany = errors.New("too many contexts")

// Apply applies to sc the rule for ev. It does not change sc.
func (t *Tester) Apply(sc []Context, ev Event) (*Step, error) {
	st := &Step{Event: ev}
	if err := t.successors(sc, st); err != nil {
		return nil, err
	}
	if guessed(st) {
		return st, nil
	}
	if st.Verdict == None {
		var err error
		st.SC, err = t.closure(st.Next)
		if errors.Is(err, errTooMany) {
			st.SC, st.Verdict = nil, Inconc
			st.Reason = fmt.Sprintf("more than %d contexts explain the run: the tester does not tell them apart", t.MaxContexts)
			return st, nil
		}
		if err != nil {
			return nil, err
		}
	}
	st.Reason = reason(st)
	return st, nil
}

// guessed applies the rule that fits st's sets, and reports whether
// the verdict would rest on an undecided answer: the accept node is
// reached only if the solver's undecided answer holds, and no Pass (nor
// WeakPass) rests on a guess, so the step is then Inconc.
func guessed(st *Step) bool {
	st.Rule, st.Verdict = decide(st.Event.Stim, len(st.Next), len(st.NextSkip), len(st.NextPass))
	n := undecidedAccept(st)
	if n == nil || (st.Verdict != Pass && st.Verdict != WeakPass) {
		return false
	}
	st.Verdict = Inconc
	st.Reason = fmt.Sprintf("%s would reach accept node %s (%s), but the solver could not decide its path condition (%s): Inconc rather than a verdict resting on an undecided answer",
		st.Event, n.Node.PathString(), st.Rule, n.Node.State.Loc)
	return true
}

// decide applies rules 1-5 to an observation and rule 6 to a
// stimulation, given the sizes of Next, NextSkip and NextPass (the
// latter two are disjoint subsets of Next). Rules 1-5 are exclusive and
// exhaustive: an observation meets exactly one of their conditions.
func decide(stim bool, next, skip, pass int) (Rule, Verdict) {
	switch {
	case stim && skip > 0:
		return 6, None
	case stim:
		return NoRule, Inconc
	case next == 0:
		return 2, Fail
	case pass == 0 && skip > 0:
		return 1, None
	case pass == 0:
		return 3, Inconc
	case pass == next:
		return 4, Pass
	}
	return 5, WeakPass
}

// successors computes Next, NextSkip and NextPass of ev from sc into st.
// A query the solver cannot decide counts as satisfiable: the context
// is in Next (so Fail needs every successor proved impossible), in
// NextPass for an accept node, and in NextSkip for a skip node when no
// accept node below is proved reachable but one is undecided.
//
// For a skip node, targetCond is asked first: the path condition of an
// accept node below implies π(n), so when it holds f ∧ π(n) needs no
// query of its own (the common case on the way to accept: one query
// instead of two).
func (t *Tester) successors(sc []Context, st *Step) error {
	ev := st.Event
	for _, c := range sc {
		children, err := t.tp.x.Expand(c.Node)
		if err != nil {
			return err
		}
		for _, n := range children {
			if !matches(n, ev) {
				continue
			}
			d, ok := c.with(n, ev)
			if !ok {
				continue
			}
			label, reach := t.tp.Label(n), unsat
			if label == symex.Skip {
				if reach, err = t.reaches(d); err != nil {
					return err
				}
			}
			a := sat // implied by reach == sat
			if reach != sat {
				if a, err = t.sat(d.under(n.State.PC)); err != nil {
					return fmt.Errorf("%s: %w", n.PathString(), err)
				}
			}
			if a == unsat {
				continue
			}
			if label == symex.Accept && t.tp.ec[n] != nil {
				// The external constraint fails: the complementary twin, ⊥.
				in, err := t.sat(d.under(t.tp.Cond(n)))
				if err != nil {
					return fmt.Errorf("%s: %w", n.PathString(), err)
				}
				if in == unsat {
					label = symex.Bottom
				}
			}
			d.Undecided = a == unknown
			d.Accepted = d.Accepted || label == symex.Accept
			st.Next = append(st.Next, d)
			switch {
			case label == symex.Accept: // targetCond(n) = π(n): the query above
				st.NextPass = append(st.NextPass, d)
			case reach != unsat:
				st.NextSkip = append(st.NextSkip, d)
			}
			if reach == unknown {
				st.Undecided++
			}
			if d.Undecided {
				st.Undecided++
			}
		}
	}
	return nil
}

// matches reports whether the symbolic transition into n can be ev: the
// same action, an input for a stimulation, an output or δ for an
// observation.
func matches(n *symex.Node, ev Event) bool {
	if n.Action == nil || n.Action.Name != ev.Action || ev.Bad != "" {
		return false
	}
	if ev.Stim {
		return n.Action.Dir == spec.Input
	}
	return n.Action.Dir == spec.Output
}

// reaches decides f ∧ targetCond(s) for d = (s, f): one query per
// accept node reachable from s, satisfiable as soon as one is. A call
// that an implementation fails to evaluate leaves its target undecided
// (unknown, which counts as reachable, so no rule concludes from it):
// targetCond only steers the run and decides Inconc, and a target the
// run may never take is no reason to end it in an error.
func (t *Tester) reaches(d Context) (answer, error) {
	res := unsat
	for _, a := range t.tp.Targets(d.Node) {
		r, err := t.sat(d.under(t.tp.Cond(a)))
		var ce *extfunc.CallError
		if errors.As(err, &ce) {
			r, err = unknown, nil
		}
		if err != nil {
			return unsat, fmt.Errorf("%s: targetCond: %w", a.PathString(), err)
		}
		if r == sat {
			return sat, nil
		}
		if r == unknown {
			res = unknown
		}
	}
	return res, nil
}

// closure adds to sc the contexts reachable by internal transitions
// (their parameters, if any, are free: f does not change).
func (t *Tester) closure(sc []Context) ([]Context, error) {
	out := slices.Clone(sc)
	for i := 0; i < len(out); i++ {
		if len(out) > t.MaxContexts {
			return out, errTooMany
		}
		children, err := t.tp.x.Expand(out[i].Node)
		if err != nil {
			return nil, err
		}
		for _, n := range children {
			if n.Action == nil || n.Action.Dir != spec.Internal {
				continue
			}
			d := Context{Node: n, Values: out[i].Values, Accepted: out[i].Accepted, sig: out[i].sig}
			a, err := t.sat(d.under(n.State.PC))
			if err != nil {
				return nil, err
			}
			if a != unsat {
				d.Undecided = a == unknown
				out = append(out, d)
			}
		}
	}
	return out, nil
}

// answer is a three-valued satisfiability answer.
type answer int

const (
	unsat answer = iota
	sat
	unknown
)

// sat decides a predicate over symbols: exactly when it folds to a
// constant, otherwise with the solver.
func (t *Tester) sat(e expr.Expr) (answer, error) {
	e, err := t.calls(e)
	if err != nil {
		return unsat, err
	}
	e = symex.FoldGround(e)
	switch {
	case expr.IsFalse(e):
		return unsat, nil
	case expr.IsTrue(e):
		return sat, nil
	}
	r, err := t.z.Sat(e)
	switch {
	case errors.Is(err, solver.ErrUnknown):
		return unknown, nil
	case err != nil:
		return unsat, err
	case r == solver.Sat:
		return sat, nil
	}
	return unsat, nil
}

// calls evaluates the calls of e whose arguments are constants and
// adds the tables' facts about the others (see Tester.Funcs).
func (t *Tester) calls(e expr.Expr) (expr.Expr, error) { return extfunc.FoldCalls(t.Funcs, e) }

// reason explains the outcome of a step.
func reason(st *Step) string {
	ev := st.Event.String()
	var s string
	switch st.Rule {
	case 1:
		s = fmt.Sprintf("%s keeps an accept node reachable; %d context(s)", ev, len(st.SC))
	case 2:
		s = fmt.Sprintf("unspecified output %s: no context allows it", ev)
		if st.Event.Bad != "" {
			s = fmt.Sprintf("unspecified output %s: %s", st.Event.Action, st.Event.Bad)
		}
	case 3:
		s = fmt.Sprintf("%s is specified, but no accept node is reachable any more", ev)
	case 4:
		s = fmt.Sprintf("%s reaches %s, and nothing else explains the run", ev, paths(st.NextPass))
	case 5:
		s = fmt.Sprintf("%s reaches %s, but %s explain(s) the run too", ev, paths(st.NextPass), paths(others(st)))
	case 6:
		s = fmt.Sprintf("sent %s toward accept; %d context(s)", ev, len(st.SC))
	case NoRule:
		s = fmt.Sprintf("sent %s, after which no accept node is reachable (rule 6 needs NextSkip ≠ ∅)", ev)
	}
	if st.Undecided > 0 {
		s += fmt.Sprintf(" (%d solver queries undecided, counted as satisfiable)", st.Undecided)
	}
	return s
}

// others returns the contexts of Next outside NextPass.
func others(st *Step) []Context {
	var out []Context
	for _, c := range st.Next {
		if !slices.ContainsFunc(st.NextPass, func(p Context) bool { return p.Node == c.Node }) {
			out = append(out, c)
		}
	}
	return out
}

func paths(cs []Context) string {
	ps := make([]string, len(cs))
	for i, c := range cs {
		ps[i] = c.Node.PathString()
	}
	return strings.Join(ps, ", ")
}

// undecidedAccept returns a context of NextPass whose path condition the
// solver could not decide, nil when every one was decided.
func undecidedAccept(st *Step) *Context {
	for i := range st.NextPass {
		if st.NextPass[i].Undecided {
			return &st.NextPass[i]
		}
	}
	return nil
}
