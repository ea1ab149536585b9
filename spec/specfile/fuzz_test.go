package specfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// cmpSpec is the spec of docs/reference.md#model-files, against which the fuzzer reads
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
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*.yaml"))
	ext, _ := filepath.Glob(filepath.Join("testdata", "ext", "*.yaml"))
	for _, file := range append(files, ext...) {
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
		// The extensions: ranges, invariant, functions, built-ins, arrays.
		"kind: spec\nname: t\nvariables: {x: {type: int, range: [0, 2]}, y: {type: int, range: [3, -1]}}\ninvariant: \"x <= 2\"\nactions: {}\ninitial: {location: A}\n",
		"kind: spec\nname: t\nfunctions: {F: {params: [\"[2]int\", real], result: int, table: [[[1, 2], \"7/2\", 3], [1, 2, 3.5, 4]], impl: ./f}}\nvariables: {v: \"[2]int\"}\nactions: {a: {dir: input}}\ninitial: {location: A}\ntransitions: [{from: A, action: a, guard: \"F(v, 1) > F([2]int{v[1], 0}, real(v[0]))\", to: A}]\n",
		"kind: spec\nname: t\nfunctions: {f: {params: {a: int}, result: int, def: \"g(a)\"}, g: {params: {b: int}, result: int, def: \"f(b) + abs(b)\"}}\nvariables: {}\nactions: {}\ninitial: {location: A}\n",
		"kind: spec\nname: t\nvariables: {v: \"[3]int\", k: int}\nactions: {a: {dir: input, params: {p: int}}}\ninitial: {location: A, condition: \"v[k] == 0\"}\ntransitions: [{from: A, action: a, assign: {\"v[p]\": \"ite(p > 0, min(p, k), max(k, 1))\", \"v[7]\": 0, k: \"v[k + 1]\"}, to: A}]\n",
		"kind: spec\nname: t\nvariables: {v: \"[2]bool\", w: \"[2]bool\"}\nactions: {a: {dir: input, params: {p: \"[2]int\"}}}\ninitial: {location: A}\ntransitions: [{from: A, action: a, assign: {v: w, \"w[0]\": v}, to: A}]\n",
		"kind: spec\nname: t\ntables: t.yaml\nvariables: {}\nactions: {}\ninitial: {location: A}\n",
		// A second document; range bounds beyond 64 bits.
		"kind: spec\nname: t\nvariables: {}\nactions: {}\ninitial: {location: A}\n---\nkind: spec\n",
		"kind: spec\nname: t\nvariables: {x: {type: int, range: [-99999999999999999999, 1e30]}}\nactions: {a: {dir: input, params: {p: {type: int, range: [0, 0x1_0000_0000_0000_0000]}}}}\ninitial: {location: A, condition: x == p}\n",
	} {
		f.Add([]byte(s))
	}
	sp, err := ParseModel("cmp.yaml", []byte(cmpSpec), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, with := range []*spec.Model{nil, sp} {
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
	list, ok := err.(expr.ErrorList)
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
