package emit

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

const testSpec = `kind: spec
name: s
variables: {x: int}
actions:
  in:  {dir: input, params: {p: int, q: int}}
  out: {dir: output}
  tau: {dir: internal}
initial: {location: A}
transitions:
  - {from: A, action: in, guard: "p > 0 && x < q", assign: {x: p, y: q}, to: 'B "quoted" \ back'}
  - {from: 'B "quoted" \ back', action: tau, to: C}
  - {name: done, from: C, action: out, to: A}
`

func mustParse(t *testing.T, src string, sp *spec.Model) *spec.Model {
	t.Helper()
	m, err := specfile.ParseModel("m.yaml", []byte(src), sp)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDOTSpec(t *testing.T) {
	src := strings.Replace(testSpec, "variables: {x: int}", "variables: {x: int, y: int}", 1)
	m := mustParse(t, src, nil)
	got := DOT(m).String()
	for _, want := range []string{
		`label="B \"quoted\" \\ back"`,
		`n2->n3[fontsize="10",label="?in(p, q)\n[p > 0 && x < q]\n/ x := p, y := q"]`,
		`n3->n4[fontsize="10",label="tau",style="dotted"]`,
		`n4->n2[fontsize="10",label="!out\n(done)",style="dashed"]`,
		`n1[label="",shape="point",style="invis"]`,
		`n1->n2;`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if again := DOT(m).String(); again != got {
		t.Error("two drawings of the same model differ")
	}
}

func TestDOTPurpose(t *testing.T) {
	sp := mustParse(t, strings.Replace(testSpec, "variables: {x: int}", "variables: {x: int, y: int}", 1), nil)
	p := mustParse(t, `kind: purpose
name: p
variables: {}
initial: {location: W}
accept: [Acc]
transitions:
  - {from: W, action: out, to: Acc}
  - {from: W, action: delta, to: W}
  - {from: W, action: "*", guard: "x > 1", to: W}
`, sp)
	got := DOT(p).String()
	for _, want := range []string{
		`[label="Acc",shape="doublecircle"]`,
		`[fontsize="10",label="!out",style="dashed"]`,
		`[fontsize="10",label="!delta",style="dashed"]`,
		`[fontsize="10",headport="s",label="otherwise\n[x > 1]",style="dotted",tailport="s"]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}

func TestDOTTestcase(t *testing.T) {
	tc := mustParse(t, `kind: testcase
name: tc
variables: {}
actions:
  in:    {dir: send}
  out:   {dir: receive}
  delta: {dir: receive}
initial: {location: "Rx,Wait"}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: "Rx,Wait", action: in, to: B}
  - {from: B, action: out, to: Pass}
  - {from: B, action: delta, to: Fail}
  - {from: B, action: in, to: Inconc}
`, nil)
	got := DrawDOT(tc, DrawOptions{AllEdges: true}).String()
	for _, want := range []string{
		`[fillcolor="palegreen",label="Pass",shape="box",style="filled,rounded"]`,
		`[fillcolor="lightcoral",label="Fail",shape="box",style="filled,rounded"]`,
		`[fillcolor="orange",label="Inconc",shape="box",style="filled,rounded"]`,
		`n2->n3[fontsize="10",label="!in"]`,
		`[fontsize="10",label="?out",style="dashed"]`,
		`[fontsize="10",label="?delta",style="dashed"]`,
		`label="Rx,Wait"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}
