// Package exampletest gives the tests of other packages the bundled
// examples (examples/*/spec.yaml with each purpose*.yaml beside it that
// stg generate reads) and a solver context that the test closes.
package exampletest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/specfile"
)

// Pair is a spec with one of its purposes; Name is "example/purpose".
type Pair struct {
	Name, Spec, Purpose string
}

// Pairs returns every example's spec with each of its purposes that the
// stg generate route reads: a purpose with where: state predicates is
// written for the abstraction route (stg abstract, stg tour) and left
// out, as stg generate refuses it (spec.Model.RefuseStatePredicates).
// root is the repository's directory seen from the test ("..").
func Pairs(tb testing.TB, root string) []Pair {
	tb.Helper()
	specs, err := filepath.Glob(filepath.Join(root, "examples", "*", "spec.yaml"))
	if err != nil || len(specs) == 0 {
		tb.Fatalf("no examples found under %s: %v", root, err)
	}
	var r []Pair
	for _, s := range specs {
		dir := filepath.Dir(s)
		purposes, _ := filepath.Glob(filepath.Join(dir, "purpose*.yaml"))
		for _, p := range purposes {
			if !generateReads(tb, s, p) {
				continue
			}
			name := filepath.Base(dir) + "/" + strings.TrimSuffix(filepath.Base(p), ".yaml")
			r = append(r, Pair{Name: name, Spec: s, Purpose: p})
		}
	}
	return r
}

// generateReads reports whether stg generate reads the purpose p of
// the spec s: it loads, and labels no location with a state predicate.
// A bundled file that does not load fails the test.
func generateReads(tb testing.TB, s, p string) bool {
	tb.Helper()
	sp, err := specfile.LoadFile(s, nil)
	if err != nil {
		tb.Fatalf("bundled spec: %v", err)
	}
	m, err := specfile.LoadFile(p, sp)
	if err != nil {
		tb.Fatalf("bundled purpose: %v", err)
	}
	return m.RefuseStatePredicates("stg generate") == nil
}

// Context returns a new solver context, closed when the test ends.
func Context(tb testing.TB) *solver.Context {
	tb.Helper()
	ctx, err := solver.NewContext()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(ctx.Close)
	return ctx
}
