package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

// FuzzGenerate reads arbitrary purposes for the cmp spec and runs the
// whole pipeline on those that load: it must never panic, and a test
// case it produces must be written and read back.
func FuzzGenerate(f *testing.F) {
	s, err := specfile.LoadFile("../examples/cmp/spec.yaml", nil)
	if err != nil {
		f.Fatal(err)
	}
	purposes, _ := filepath.Glob("../examples/cmp/purpose*.yaml")
	for _, p := range purposes {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("kind: purpose\nname: a\nvariables: {n: int}\ninitial: {location: W, condition: n == 0}\naccept: [A]\ntransitions:\n  - {from: W, action: in, guard: \"p > n\", assign: {n: n + 1}, to: W}\n  - {from: W, action: ok, guard: \"n >= 2\", to: A}\n  - {from: W, action: \"*\", to: S}\n"))
	f.Add([]byte("kind: purpose\nname: d\nvariables: {}\ninitial: {location: W}\naccept: [A]\ntransitions:\n  - {from: W, action: delta, to: A}\n"))
	ctx := newContext(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		tp, err := specfile.ParseModel("p.yaml", data, s)
		if err != nil || len(tp.Transitions) > 12 {
			return
		}
		for _, domain := range []string{"none", "polyhedra"} {
			res, err := Models(ctx, s, tp, Options{Domain: domain})
			if err != nil {
				continue
			}
			b, err := specfile.Marshal(res.Testcase)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := specfile.ParseModel("tc.yaml", b, nil); err != nil {
				t.Fatalf("generated test case does not load: %v\n%s", err, b)
			}
		}
	})
}
