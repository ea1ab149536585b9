package symex

import (
	"slices"
	"strings"
	"testing"
)

// TestPurposeLabels: a purpose labels its accept nodes accept, their
// strict ancestors skip and every other node ⊥; Targets are the accept
// nodes at or below a node. An accept node below another stays accept,
// whatever the order of the accept nodes.
func TestPurposeLabels(t *testing.T) {
	//        r
	//      /   \
	//     a     b
	//    / \     \
	//   c   d     e
	//   |
	//   f
	r := &Node{ID: 0}
	child := func(id int, p *Node) *Node { return &Node{ID: id, Parent: p, Depth: p.Depth + 1} }
	a, b := child(1, r), child(2, r)
	c, d, e := child(3, a), child(4, a), child(5, b)
	f := child(6, c)
	all := []*Node{r, a, b, c, d, e, f}
	name := map[*Node]string{r: "r", a: "a", b: "b", c: "c", d: "d", e: "e", f: "f"}
	tests := []struct {
		name    string
		accept  []*Node
		labels  string // of r, a, b, c, d, e, f
		targets map[*Node][]*Node
	}{
		{"one leaf", []*Node{d}, "skip skip bottom bottom accept bottom bottom",
			map[*Node][]*Node{r: {d}, a: {d}, d: {d}, b: nil, f: nil}},
		{"two subtrees", []*Node{f, e}, "skip skip skip skip bottom accept accept",
			map[*Node][]*Node{r: {f, e}, b: {e}, c: {f}, d: nil}},
		{"accept below accept", []*Node{f, c}, "skip skip bottom accept bottom bottom accept",
			map[*Node][]*Node{c: {c}, a: {f, c}}},
		{"accept below accept, reversed", []*Node{c, f}, "skip skip bottom accept bottom bottom accept",
			map[*Node][]*Node{c: {c}, a: {c, f}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPurpose(tt.name, all, tt.accept)
			var got []string
			for _, n := range all {
				got = append(got, p.Label(n).String())
			}
			if g := strings.Join(got, " "); g != tt.labels {
				t.Errorf("labels = %q, want %q", g, tt.labels)
			}
			for n, want := range tt.targets {
				if got := p.Targets(n); !slices.Equal(got, want) {
					t.Errorf("Targets(%s) = %d nodes, want %d", name[n], len(got), len(want))
				}
			}
		})
	}
}

// TestLabelNames: the words of the tree files and the symbols of the
// explanations.
func TestLabelNames(t *testing.T) {
	for _, tt := range []struct {
		l            Label
		word, symbol string
	}{{Bottom, "bottom", "⊥"}, {Skip, "skip", "skip"}, {Accept, "accept", "accept"}} {
		if tt.l.String() != tt.word || tt.l.Symbol() != tt.symbol {
			t.Errorf("label %d: %q, %q; want %q, %q", int(tt.l), tt.l.String(), tt.l.Symbol(), tt.word, tt.symbol)
		}
	}
}
