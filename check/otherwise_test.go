package check

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

const swallowSpec = `kind: spec
name: s
variables: {x: int}
actions:
  in:  {dir: input, params: {p: int}}
  ok:  {dir: output, params: {p: int}}
  tau: {dir: internal}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: in, assign: {x: p}, to: B}
  - {from: B, action: tau, to: C}
  - {from: C, action: ok, guard: p == x, to: A}
`

func TestOtherwiseSwallows(t *testing.T) {
	sp, err := specfile.ParseModel("s.yaml", []byte(swallowSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, transitions, want string }{
		{"swallows ?in", `
  - {from: W, action: ok, guard: "p == 2", to: Acc}
  - {from: W, action: "*", to: Sink}
`, `p.yaml:8:5: purpose p: no Accept location can be reached: this "*" transition from W to Sink takes every action W does not name, also the one the only way to Accept needs: ?in in spec location A`},
		{"names ?in", `
  - {from: W, action: in, to: W}
  - {from: W, action: ok, guard: "p == 2", to: Acc}
  - {from: W, action: "*", to: Sink}
`, ""},
		{"guarded otherwise", `
  - {from: W, action: ok, guard: "p == 2", to: Acc}
  - {from: W, action: "*", guard: "x > 5", to: Sink}
`, ""},
		{"second step", `
  - {from: W, action: in, to: V}
  - {from: V, action: in, to: Acc}
  - {from: V, action: "*", to: Sink}
`, `p.yaml:9:5: purpose p: no Accept location can be reached: this "*" transition from V to Sink takes every action V does not name, also the one the only way to Accept needs: !ok in spec location C`},
		{"unreachable anyway", `
  - {from: W, action: nosuch, to: Acc}
  - {from: W, action: "*", to: W}
`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "kind: purpose\nname: p\nvariables: {}\ninitial: {location: W}\naccept: [Acc]\ntransitions:" + tt.transitions
			p, err := specfile.ParseModel("p.yaml", []byte(src), sp)
			if err != nil {
				if tt.name == "unreachable anyway" {
					return // an unknown action is the loader's to report
				}
				t.Fatal(err)
			}
			var got []string
			for _, e := range OtherwiseSwallows(p) {
				got = append(got, e.Error())
			}
			if s := strings.Join(got, "\n"); !strings.HasPrefix(s, tt.want) || (tt.want == "") != (s == "") {
				t.Errorf("got %q\nwant %q", s, tt.want)
			}
		})
	}
	if OtherwiseSwallows(sp) != nil {
		t.Error("a spec got a finding")
	}
}
