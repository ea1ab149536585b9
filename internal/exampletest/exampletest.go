// Package exampletest gives the tests of other packages the bundled
// examples (examples/*/spec.yaml with each purpose*.yaml beside it) and a
// solver context that the test closes.
package exampletest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stg-tool/stg/solver"
)

// Pair is a spec with one of its purposes; Name is "example/purpose".
type Pair struct {
	Name, Spec, Purpose string
}

// Pairs returns every example's spec with each of its purposes (those
// with a where: section left out: see isLTSPurpose). root is
// the repository's directory seen from the test ("..").
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
			if isLTSPurpose(p) {
				continue
			}
			name := filepath.Base(dir) + "/" + strings.TrimSuffix(filepath.Base(p), ".yaml")
			r = append(r, Pair{Name: name, Spec: s, Purpose: p})
		}
	}
	return r
}

// isLTSPurpose reports whether the purpose file p has a where: section
// (state predicates on its locations, possibly none): such a purpose is
// written for the abstraction route (stg abstract, stg tour), not for
// stg generate.
func isLTSPurpose(p string) bool {
	data, err := os.ReadFile(p)
	return err == nil && regexp.MustCompile(`(?m)^where:`).Match(data)
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
