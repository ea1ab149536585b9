package spec

import (
	"fmt"
	"testing"
)

// TestOutgoingIndex: on a model large enough to be indexed, Outgoing
// agrees with a scan, also after the transitions are appended to or
// replaced, or a transition is replaced in place by one with the same
// source. (One moved in place to another source is seen by that source
// only once the index is rebuilt: documented on Outgoing.)
func TestOutgoingIndex(t *testing.T) {
	m := &Model{}
	for i := 0; i < 3*outIndexMin; i++ {
		m.Transitions = append(m.Transitions, &Transition{From: fmt.Sprintf("L%d", i%7), To: "X", Action: fmt.Sprint(i)})
	}
	check := func(when string) {
		t.Helper()
		for k := 0; k < 9; k++ {
			l := fmt.Sprintf("L%d", k)
			var want []*Transition
			for _, tr := range m.Transitions {
				if tr.From == l {
					want = append(want, tr)
				}
			}
			got := m.Outgoing(l)
			if len(got) != len(want) {
				t.Fatalf("%s: Outgoing(%s) has %d transitions, want %d", when, l, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: Outgoing(%s)[%d] differs", when, l, i)
				}
			}
		}
	}
	check("first")
	m.Transitions = append(m.Transitions, &Transition{From: "L8"})
	check("appended")
	m.Transitions[3] = &Transition{From: "L3", Action: "new"}
	check("replaced in place")
	m.Transitions = append([]*Transition(nil), m.Transitions[10:]...)
	check("new slice")
}
