package symex

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

// TestIncrementalSameTree unfolds every example to height 6, and
// examples/atm restricted by inclusion (paths of more than stackDepth
// steps), with the children checked in the scopes kept along the path
// (incremental.go) and in one-shot queries: the trees print alike.
func TestIncrementalSameTree(t *testing.T) {
	z := newContext(t)
	type run struct {
		name string
		opts Options
	}
	var runs []run
	specs := exampleSpecs(t)
	for name := range specs {
		runs = append(runs, run{name, Options{Depth: 6, MaxNodes: 400}})
	}
	runs = append(runs, run{"atm", Options{Inclusion: true, MaxNodes: 600}})
	for _, r := range runs {
		m := specs[r.name]
		var out [2]bytes.Buffer
		for i, one := range []bool{false, true} {
			opts := r.opts
			opts.NoIncremental = one
			tr := execute(t, z, m, opts)
			if err := WriteText(&out[i], tr.Nodes, m.Variables, nil); err != nil {
				t.Fatal(err)
			}
		}
		if out[0].String() != out[1].String() {
			t.Errorf("%s %+v: the trees differ:\n%s\none-shot:\n%s", r.name, r.opts, out[0].String(), out[1].String())
		}
	}
}

// TestLevelsOf checks the scopes asked for a node's path: its
// ancestors' steps below the root's whole condition, or the node's
// whole condition when the path is deeper than stackDepth.
func TestLevelsOf(t *testing.T) {
	m, err := specfile.LoadFile(filepath.Join("..", "examples", "atm", "spec.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := execute(t, newContext(t), m, Options{Inclusion: true, MaxNodes: 600})
	deep, shallow := 0, 0
	for _, n := range tr.Nodes {
		ls := levelsOf(n)
		last := ls[len(ls)-1]
		if last.n != n {
			t.Fatalf("%s: the last scope is not the node's", n.PathString())
		}
		if n.Depth >= stackDepth {
			deep++
			if len(ls) != 1 || !ls[0].whole {
				t.Errorf("%s at depth %d: %d scopes, want its whole condition", n.PathString(), n.Depth, len(ls))
			}
			continue
		}
		shallow++
		if !ls[0].whole || ls[0].n != tr.Root || len(ls) != n.Depth+1 {
			t.Errorf("%s at depth %d: %d scopes from %s, want %d from the root", n.PathString(), n.Depth, len(ls), ls[0].n.PathString(), n.Depth+1)
		}
		for i, l := range ls[1:] {
			if l.whole || l.n.Parent != ls[i].n {
				t.Errorf("%s: scope %d is not the step of the next node on the path", n.PathString(), i+1)
			}
		}
	}
	if deep == 0 || shallow == 0 {
		t.Errorf("%d nodes deeper than %d, %d not", deep, stackDepth, shallow)
	}
}
