package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cmpSpec is the spec of FORMAT.md §1, against which the fuzzer reads
// purposes.
const cmpSpec = `kind: spec
name: cmp
types:
  Status: [idle, busy]
variables:
  x: int
  y: int
actions:
  in:  {dir: input,  params: {p: int}}
  ok:  {dir: output, params: {p: int}}
  nok: {dir: output, params: {p: int}}
  end: {dir: output}
initial:
  location: Rx
  condition: x == 0 && y == 0
transitions:
  - {from: Rx,  action: in,  assign: {x: p}, to: Ry}
  - {from: Ry,  action: in,  assign: {y: p}, to: Cmp}
  - {from: Cmp, action: ok,  guard: "p == y - x && p >= 2", to: End}
  - {from: Cmp, action: nok, guard: "p == y - x && p < 2",  to: End}
  - {from: End, action: end, to: Rx}
`

// FuzzParseModel reads arbitrary bytes as a model, alone and as a purpose
// of the cmp spec. The loader must not panic (its recover is only a last
// guard, whose "internal error" the fuzzer treats as a failure), every
// error must carry a position, and a model it accepts must survive a
// round trip through Marshal.
func FuzzParseModel(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.yaml"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		cmpSpec, basePurpose, baseTestcase, baseSpec,
		"", "kind: spec", "kind: purpose\n", "kind: testcase\nname: x\n", "- a\n", "kind: [spec]\n",
		"kind: spec\nname: t\nvariables: {x: int}\nactions: {a: {dir: input}}\ninitial: {location: A}\ntransitions: [{from: A, action: a, guard: \"x / 0 > 1\", to: A}]\n",
		"kind: spec\nname: t\nvariables: {x: int}\nactions: {a: {dir: input}}\ninitial: {location: A}\ntransitions: [{from: A, action: a, guard: \"x.y(\", to: A}]\n",
		"kind: spec\nname: t\nvariables: {x: int}\nactions: {a: {dir: input}}\ninitial: {location: A}\ntransitions: [{from: A, action: a, guard: |\n    x >\n    , to: A}]\n",
		"kind: spec\nname: t\nvariables: {x: int}\nfunctions: {f: {params: [int], result: int}}\nactions: {a: {dir: input}}\ninitial: {location: A, condition: f(x) == f()}\ntransitions: []\n",
		"kind: spec\nname: t\nvariables: &a {x: int}\nactions: *a\n",
		"kind: spec\nname: t\ntypes: {E: [a, b], F: E}\nvariables: {x: E}\nactions: {}\ninitial: {location: A, condition: x == c}\n",
		"kind: testcase\nname: t\nvariables: {}\nactions: {delta: {dir: receive}}\ninitial: {location: A}\nverdicts: {pass: [A], fail: [A]}\ntransitions: [{from: A, action: delta, to: A}]\n",
		"kind: purpose\nname: p\nvariables: {}\ninitial: {location: W}\naccept: []\ntransitions: [{from: W, action: \"*\", guard: \"p > 0\", to: W}]\n",
		"kind: spec\nname: t\nvariables: {x: real}\nactions: {a: {dir: input, params: {p: real}}}\ninitial: {location: A, condition: \"x == 1e400 / 0.0000001\"}\ntransitions: []\n",
	} {
		f.Add([]byte(s))
	}
	sp, err := ParseModel("cmp.yaml", []byte(cmpSpec), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, with := range []*Model{nil, sp} {
			m, err := ParseModel("f.yaml", data, with)
			if err != nil {
				checkErrors(t, err)
				continue
			}
			out, err := Marshal(m)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if _, err := ParseModel("f.yaml", out, with); err != nil {
				t.Fatalf("reading back the marshalled model: %v\n--- input\n%s\n--- marshalled\n%s", err, data, out)
			}
		}
	})
}

func checkErrors(t *testing.T, err error) {
	t.Helper()
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("error %T, want ErrorList: %v", err, err)
	}
	if len(list) == 0 {
		t.Fatal("empty ErrorList")
	}
	for _, e := range list {
		if strings.Contains(e.Msg, "internal error") {
			t.Fatalf("loader panicked: %v", e)
		}
		if e.Pos.File != "f.yaml" || !e.Pos.IsValid() {
			t.Fatalf("error without position: %q", e.Error())
		}
	}
}
