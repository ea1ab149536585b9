package instantiate

import (
	"testing"

	"github.com/stg-tool/stg/predabs"
)

// TestTourSeveralInitial: with two initial product states, a virtual
// root leads to both, and its edges are not part of the paths.
func TestTourSeveralInitial(t *testing.T) {
	abs := []*predabs.State{{ID: 0, Label: "a"}, {ID: 1, Label: "b"}, {ID: 2, Label: "c"}}
	st := make([]*predabs.ProductState, 3)
	for i := range st {
		st[i] = &predabs.ProductState{ID: i, Purpose: "q", Abstract: abs[i]}
	}
	st[0].Initial, st[1].Initial, st[2].Final = true, true, true
	sp := &predabs.Product{
		States:  st,
		Initial: st[:2],
		Finals:  st[2:],
		Transitions: []*predabs.ProductTransition{
			{From: st[0], To: st[2], Action: "x"},
			{From: st[1], To: st[2], Action: "y"},
		},
	}
	tr, paths, err := Tour(sp)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || len(paths[0]) != 1 || len(paths[1]) != 1 || paths[0][0] == paths[1][0] {
		t.Fatalf("paths %v (tour %v)", paths, tr.Paths)
	}
	for _, p := range paths {
		if !p[0].From.Initial || !p[0].To.Final {
			t.Errorf("path %v does not go from an initial state to a final one", p)
		}
	}
}

// TestTourNoInitial: a product without initial state has no test.
func TestTourNoInitial(t *testing.T) {
	_, paths, err := Tour(&predabs.Product{})
	if err != nil || len(paths) != 0 {
		t.Errorf("paths %v, err %v", paths, err)
	}
}
