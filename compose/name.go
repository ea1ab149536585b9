package compose

import (
	"sort"
	"strings"
)

// Name is a system transition name (o, {i1..ik}) of Def 7: Out is the
// qualified basic output or internal transition, or "" for ε (the
// environment emits); In are the qualified basic input transitions
// synchronised with it, sorted.
type Name struct {
	Out string
	In  []string
}

// String writes n as SM.s_pay+{Int.i_cash}, SM.s_pay or {Int.i_bet}.
func (n Name) String() string {
	if len(n.In) == 0 {
		return n.Out
	}
	in := "{" + strings.Join(n.In, ",") + "}"
	if n.Out == "" {
		return in
	}
	return n.Out + "+" + in
}

// ParseName reads a name written by String (or a basic output name).
func ParseName(s string) (Name, bool) {
	out, in, ok := strings.Cut(s, "{")
	if !ok {
		return Name{Out: s}, s != ""
	}
	if !strings.HasSuffix(in, "}") || (out != "" && !strings.HasSuffix(out, "+")) {
		return Name{}, false
	}
	n := Name{Out: strings.TrimSuffix(out, "+")}
	for _, x := range strings.Split(strings.TrimSuffix(in, "}"), ",") {
		if x == "" {
			return Name{}, false
		}
		n.In = append(n.In, x)
	}
	sort.Strings(n.In)
	return n, true
}

// Equal reports whether n and m are the same name.
func (n Name) Equal(m Name) bool { return n.String() == m.String() }

// join returns the name of a synchronisation of n and m: the output of
// either (at most one has one) and the union of the inputs.
func join(n, m Name) Name {
	out := n.Out
	if out == "" {
		out = m.Out
	}
	in := append(append([]string(nil), n.In...), m.In...)
	sort.Strings(in)
	return Name{Out: out, In: in}
}

// State is a state of a system: the location of each component, in the
// order of the system's Leaves.
type State []string

// String writes s as the flat model's location, q1,q2.
func (s State) String() string { return strings.Join(s, ",") }

func (s State) key() string { return strings.Join(s, "\x00") }

func concat(a, b State) State { return append(append(State(nil), a...), b...) }
