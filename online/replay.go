package online

import (
	"fmt"
	"io"
	"strings"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// Replay applies the inference rules to a recorded trace, without a
// SUT: rule 0, then one rule per event, up to the first verdict. It
// returns the steps taken; the verdict is the last step's (None when the
// trace ends first). visit, when not nil, is called with SC0 and then
// after each step.
func (t *Tester) Replay(events []Event, visit func(i int, sc []Context, st *Step) error) ([]*Step, error) {
	return t.replay(events, visit, func(sc []Context, ev Event) (*Step, []Context, error) {
		st, err := t.Apply(sc, ev)
		if err != nil {
			return nil, nil, err
		}
		return st, st.SC, nil
	})
}

// replay is the loop of Replay and ReplayQueued: rule 0, then apply for
// each event (the step and the contexts after it), up to the first
// verdict.
func (t *Tester) replay(events []Event, visit func(i int, sc []Context, st *Step) error, apply func(sc []Context, ev Event) (*Step, []Context, error)) ([]*Step, error) {
	sc, err := t.Start()
	if err != nil {
		return nil, err
	}
	if visit != nil {
		if err := visit(0, sc, nil); err != nil {
			return nil, err
		}
	}
	var steps []*Step
	for i, ev := range events {
		st, next, err := apply(sc, ev)
		if err != nil {
			return steps, fmt.Errorf("event %d (%s): %v", i+1, ev, err)
		}
		steps = append(steps, st)
		if visit != nil {
			if err := visit(i+1, sc, st); err != nil {
				return steps, err
			}
		}
		if st.Verdict != None {
			break
		}
		sc = next
	}
	return steps, nil
}

// WriteStep prints step i, applied to the contexts sc, as stg verdict
// does: the rule, the sets Next, NextSkip and NextPass, the new set of
// contexts or the verdict, and for each node met its location and its
// path condition under f, simplified. With st nil it prints SC0.
func (t *Tester) WriteStep(w io.Writer, i int, sc []Context, st *Step) error {
	var b strings.Builder
	if st == nil {
		fmt.Fprintf(&b, "SC0 = %s\n", setString(sc))
		t.where(&b, sc)
		_, err := io.WriteString(w, b.String())
		return err
	}
	kind := "obs"
	if st.Event.Stim {
		kind = "stim"
	}
	fmt.Fprintf(&b, "%d. %s(%s): %s", i, kind, st.Event, st.Rule)
	if st.Verdict != None {
		fmt.Fprintf(&b, ": %s", st.Verdict)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "   Next(ev, SC%d)     = %s\n", i-1, setString(st.Next))
	fmt.Fprintf(&b, "   NextSkip(ev, SC%d) = %s\n", i-1, setString(st.NextSkip))
	fmt.Fprintf(&b, "   NextPass(ev, SC%d) = %s\n", i-1, setString(st.NextPass))
	if st.Verdict == None && st.Rule == 5 {
		fmt.Fprintf(&b, "   WeakPass (%s); observing on (--after-weakpass observe)\n", st.Reason)
	}
	if st.Verdict == None {
		fmt.Fprintf(&b, "   SC%d = %s\n", i, setString(st.SC))
		t.where(&b, st.SC)
	} else {
		t.where(&b, st.Next)
	}
	if st.Undecided > 0 {
		fmt.Fprintf(&b, "   (%d solver queries undecided, counted as satisfiable)\n", st.Undecided)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// where prints, for each context, its node's label, location and path
// condition under f.
func (t *Tester) where(b *strings.Builder, cs []Context) {
	for _, c := range cs {
		fmt.Fprintf(b, "     %s %s at %s, π|f: %s\n", c.Node.PathString(), t.tp.Label(c.Node).Symbol(), c.Node.State.Loc, t.PathCond(c))
	}
}

// PathCond returns π(s) under f for the context (s, f), simplified:
// what the run tells of the symbols it has not observed (initial
// values, say), the calls of external functions whose arguments are
// known evaluated (see Tester.Funcs).
func (t *Tester) PathCond(c Context) string {
	e := c.under(c.Node.State.PC)
	if t.Funcs != nil {
		if f, err := extfunc.Fold(e, t.Funcs); err == nil {
			e = f
		}
	}
	e = symex.FoldGround(e)
	if s, err := t.z.Simplify(e); err == nil {
		e = s
	}
	return expr.Format(e)
}

// setString prints a set of contexts as the paper does:
// "{([deposit], v@2 == 250)}".
func setString(cs []Context) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
