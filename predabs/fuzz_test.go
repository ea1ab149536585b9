package predabs

import (
	"os"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// FuzzAbstract: any purpose the loader accepts over the Qui-Donc spec is
// either refused with an error or abstracted, without a panic, and the
// product is built.
func FuzzAbstract(f *testing.F) {
	src, err := os.ReadFile("testdata/fig4.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(src))
	f.Add("kind: purpose\nname: p\nvariables: {}\ninitial: {location: q0}\naccept: [q0]\nwhere: {q0: \"State == busy\"}\ntransitions: []\n")
	f.Add("kind: purpose\nname: p\nvariables: {}\ninitial: {location: q0}\naccept: [q1]\nwhere: {q1: \"TryCounter > 5 && HandSet == hang\"}\ntransitions:\n  - {from: q0, action: \"*\", to: q1}\n")
	s, err := specfile.LoadFile("testdata/quidonc.yaml", nil)
	if err != nil {
		f.Fatal(err)
	}
	ctx := newContext(f)
	f.Fuzz(func(t *testing.T, src string) {
		tp, err := specfile.ParseModel("p.yaml", []byte(src), s)
		if err != nil || tp.Kind != spec.PurposeKind {
			return
		}
		a, err := Abstract(ctx, s, tp, Options{})
		if err != nil {
			return
		}
		if _, err := a.Product(ctx, true); err != nil {
			t.Fatal(err)
		}
	})
}
