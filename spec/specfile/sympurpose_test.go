package specfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

const baseSym = `kind: sympurpose
name: atm-TG2
spec: spec.yaml
criterion: {length: 3}
accept:
  - [deposit, ask, cash]
  - [deposit, ask, tick, cash]
`

// symSpec has named transitions, one unnamed, and an ambiguous name.
const symSpec = `kind: spec
name: atm
variables: {x: int}
actions:
  deposit: {dir: input, params: {v: int}}
  ask: {dir: input}
  cash: {dir: output, params: {v: int}}
  tick: {dir: internal}
initial: {location: Idle}
transitions:
  - {name: deposit, from: Idle, action: deposit, assign: {x: v}, to: Asked}
  - {name: ask, from: Asked, action: ask, to: Paying}
  - {name: cash, from: Paying, action: cash, guard: "v == x", to: Idle}
  - {name: tick, from: Paying, action: tick, to: Paying}
  - {name: twice, from: Idle, action: ask, to: Idle}
  - {name: twice, from: Idle, action: ask, to: Asked}
  - {from: Asked, action: cash, to: Idle}
`

func TestParseSymPurpose(t *testing.T) {
	p, err := ParseSymPurpose("dir/tp.yaml", []byte(baseSym))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "atm-TG2" || p.Spec != "spec.yaml" || p.SpecPath() != filepath.Join("dir", "spec.yaml") ||
		p.SpecPos.String() != "dir/tp.yaml:3:7" || p.Criterion.Length != 3 || p.Criterion.Inclusion != 0 {
		t.Errorf("got %+v", p)
	}
	if len(p.Accept) != 2 || p.Accept[1].String() != "deposit ask tick cash" ||
		p.Accept[1].Pos.String() != "dir/tp.yaml:7:5" || p.Accept[1].NamePos[2].String() != "dir/tp.yaml:7:20" {
		t.Errorf("accept %+v", p.Accept)
	}
	if k, err := PeekKind("tp.yaml", []byte(baseSym)); err != nil || k != spec.SymPurposeKind || k.String() != "sympurpose" {
		t.Errorf("PeekKind = %v, %v", k, err)
	}
	_, err = ParseModel("tp.yaml", []byte(baseSym), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "tp.yaml:1:7: a sympurpose is not an ioSTS") {
		t.Errorf("ParseModel of a sympurpose: %v", err)
	}
}

func TestParseSymPurposeErrors(t *testing.T) {
	tests := []struct {
		name string
		line int // the line of baseSym to replace (0: src is the whole file)
		src  string
		pos  string // LINE:COL of the first error
		msg  string // a substring of its message
	}{
		{"bad YAML", 0, "kind: sympurpose\naccept: [a\n", "1:1", "bad YAML"},
		{"tab", 6, "\t- [a]", "6:1", "bad YAML"},
		{"empty file", 0, "", "1:1", "empty model file"},
		{"not a mapping", 0, "- kind\n", "1:1", "a model is a YAML mapping"},
		{"missing kind", 1, "# no kind", "2:1", "first key of a model must be kind"},
		{"unknown kind", 1, "kind: symp", "1:7", `unknown kind "symp"`},
		{"other kind", 1, "kind: purpose", "1:7", "this is a purpose, not a sympurpose"},
		{"missing name", 2, "", "1:1", "missing name"},
		{"bad name", 2, "name: a b", "2:7", `name "a b"`},
		{"missing spec", 3, "", "1:1", "missing spec"},
		{"empty spec", 3, `spec: ""`, "3:7", "empty spec path"},
		{"spec not a value", 3, "spec: [a]", "3:7", "spec must be a single value"},
		{"unknown key", 4, "crit: 2", "4:1", "unknown key crit in sympurpose (allowed: kind, name, spec, criterion, accept)"},
		{"duplicate key", 3, "spec: a.yaml\nspec: b.yaml", "4:1", "duplicate key spec in sympurpose (first at line 3)"},
		{"both criteria", 4, "criterion: {length: 2, k-inclusion: 1}", "4:24", "either length or k-inclusion, not both"},
		{"zero length", 4, "criterion: {length: 0}", "4:21", `length "0": want a positive integer`},
		{"k not an integer", 4, "criterion: {k-inclusion: one}", "4:26", `k-inclusion "one": want a positive integer`},
		{"length with sign", 4, "criterion: {length: +2}", "4:21", "want a positive integer"},
		{"length list", 4, "criterion: {length: [2]}", "4:21", "length must be a single value"},
		{"unknown criterion", 4, "criterion: {depth: 2}", "4:13", "unknown key depth in criterion"},
		{"empty criterion", 4, "criterion: {}", "4:12", "empty criterion"},
		{"criterion not a mapping", 4, "criterion: 2", "4:12", "criterion must be a mapping"},
		{"missing accept", 0, baseSym[:strings.Index(baseSym, "accept")], "1:1", "missing accept"},
		{"empty accept", 0, baseSym[:strings.Index(baseSym, "accept")] + "accept: []\n", "5:9", "accept lists no path"},
		{"null accept", 0, baseSym[:strings.Index(baseSym, "accept")] + "accept:\n", "5:8", "accept lists no path"},
		{"accept not a list", 0, baseSym[:strings.Index(baseSym, "accept")] + "accept: {a: b}\n", "5:9", "accept must be a list"},
		{"path not a list", 6, "  - deposit", "6:5", "an accept path must be a list of transition names"},
		{"path of a mapping", 6, "  - {a: b}", "6:5", "an accept path must be a list"},
		{"name not a string", 6, "  - [deposit, [ask]]", "6:15", "a transition name must be a single value"},
		{"null name", 6, "  - [deposit, ~]", "6:15", "a transition name must be a single value"},
		{"empty name", 6, `  - [deposit, ""]`, "6:15", "empty transition name"},
		{"empty path", 6, "  - []", "6:5", "empty accept path: the root is never an accept node"},
		{"duplicate path", 7, "  - [deposit,  ask, cash]", "7:5", "duplicate accept path [deposit, ask, cash] (first at line 6)"},
		{"alias", 6, "  - &x [deposit, ask, cash]\n  - *x", "7:5", "an accept path must be a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if tt.line > 0 {
				src = edit(baseSym, tt.line, tt.src)
			}
			_, err := ParseSymPurpose("tp.yaml", []byte(src))
			if err == nil {
				t.Fatalf("no error for\n%s", src)
			}
			list, ok := err.(expr.ErrorList)
			if !ok {
				t.Fatalf("error %T: %v", err, err)
			}
			want := "tp.yaml:" + tt.pos + ": "
			if got := list[0].Error(); !strings.HasPrefix(got, want) || !strings.Contains(got, tt.msg) {
				t.Errorf("got  %v\nwant %s...%s", err, want, tt.msg)
			}
		})
	}
}

func TestMarshalSymPurpose(t *testing.T) {
	src := `kind: sympurpose
name: t.1
spec: ../specs/atm spec.yaml
criterion: {k-inclusion: 1}
accept:
  - [deposit, delta]
  - ['Rx,Wait-in-Ry#2', "1", "true", 'a: b', '- x', it's, '#c']
`
	p, err := ParseSymPurpose("tp.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := MarshalSymPurpose(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != src {
		t.Errorf("marshalled\n%s\nwant\n%s", out, src)
	}
	out2, err := MarshalSymPurpose(&spec.SymPurpose{Name: "n", Spec: "s.yaml", Accept: []spec.AcceptPath{{Names: []string{"a"}}}})
	if want := "kind: sympurpose\nname: n\nspec: s.yaml\naccept:\n  - [a]\n"; err != nil || string(out2) != want {
		t.Errorf("got %q, %v; want %q", out2, err, want)
	}
	for _, bad := range []*spec.SymPurpose{
		{Name: "a b", Spec: "s", Accept: []spec.AcceptPath{{Names: []string{"a"}}}},
		{Name: "n", Accept: []spec.AcceptPath{{Names: []string{"a"}}}},
		{Name: "n", Spec: "s"},
		{Name: "n", Spec: "s", Accept: []spec.AcceptPath{{}}},
		{Name: "n", Spec: "s", Accept: []spec.AcceptPath{{Names: []string{" "}}}},
		{Name: "n", Spec: "s", Accept: []spec.AcceptPath{{Names: []string{"a"}}, {Names: []string{"a"}}}},
		{Name: "n", Spec: "s", Criterion: spec.Criterion{Length: 1, Inclusion: 1}, Accept: []spec.AcceptPath{{Names: []string{"a"}}}},
	} {
		if out, err := MarshalSymPurpose(bad); err == nil {
			t.Errorf("MarshalSymPurpose(%+v) wrote\n%s", bad, out)
		}
	}
}

func TestLoadSymPurpose(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tp.yaml")
	if err := os.WriteFile(path, []byte(baseSym), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadSymPurpose(path)
	if err != nil || p.File != path || p.SpecPath() != filepath.Join(dir, "spec.yaml") {
		t.Fatalf("LoadSymPurpose: %+v, %v", p, err)
	}
	if _, err := LoadSymPurpose(filepath.Join(dir, "none.yaml")); err == nil {
		t.Error("LoadSymPurpose of a missing file succeeded")
	}
}

func TestSymPurposeCheck(t *testing.T) {
	sp, err := ParseModel("spec.yaml", []byte(symSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	generated := func(tr *spec.Transition) string {
		if tr.Name != "" {
			return tr.Name
		}
		return tr.From + "-" + tr.Action + "-" + tr.To
	}
	tests := []struct {
		name   string
		accept string // the accept section's items, one a line, from line 6
		names  func(*spec.Transition) string
		want   []string // the errors, as LINE:COL: message substrings
	}{
		{"good", "[deposit, ask, cash]\n[deposit, ask, tick, tick, cash]\n[delta]\n[deposit, delta]", nil, nil},
		{"generated name", "[deposit, Asked-cash-Idle]", generated, nil},
		{"unnamed without names", "[deposit, Asked-cash-Idle]", nil, []string{"6:15: Asked-cash-Idle is not the name of a transition of atm"}},
		{"unknown name", "[deposit, ask, pay]", nil, []string{"6:20: pay is not the name of a transition of atm"}},
		{"first does not leave the initial location", "[ask, cash]", nil, []string{"6:6: transition ask leaves Asked, not the initial location Idle"}},
		{"broken chain", "[deposit, cash]", nil, []string{"6:15: transition cash leaves Paying, not Asked, the target of deposit"}},
		{"after delta", "[delta, deposit, ask, cash]", nil, []string{"6:13: deposit follows delta: quiescence ends an accept path"}},
		{"ends with an input", "[deposit]", nil, []string{"6:6: accept path [deposit] ends with deposit, not with an output or delta"}},
		{"ends with an internal", "[deposit, ask, tick]", nil, []string{"6:20: accept path [deposit, ask, tick] ends with tick"}},
		{"ambiguous", "[twice, twice]", nil, []string{"6:6: transition name twice is ambiguous: 2 transitions of atm leave Idle with it (spec.yaml:15:5, spec.yaml:16:5)"}},
		{"ancestor", "[deposit, ask, cash, deposit, ask, cash]\n[deposit, ask, cash]", nil,
			[]string{"6:5: accept path [deposit, ask, cash, deposit, ask, cash] extends accept path [deposit, ask, cash] (line 7)"}},
		{"several", "[deposit, ask, cash, delta, ask]\n[ask]\n[deposit, ask, cash]", nil, []string{
			"6:33: ask follows delta", "7:6: transition ask leaves Asked", "6:5: accept path [deposit, ask, cash, delta, ask] extends"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := baseSym[:strings.Index(baseSym, "  - ")] + "  - " + strings.ReplaceAll(tt.accept, "\n", "\n  - ") + "\n"
			p, err := ParseSymPurpose("tp.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check(sp, tt.names)
			var got []string
			if err != nil {
				for _, e := range err.(expr.ErrorList) {
					got = append(got, e.Error())
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for _, w := range tt.want {
				found := false
				for _, g := range got {
					found = found || strings.HasPrefix(g, "tp.yaml:"+w[:strings.Index(w, ": ")]) && strings.Contains(g, w[strings.Index(w, ": ")+2:])
				}
				if !found {
					t.Errorf("no error %q in\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
	tc, err := ParseModel("tc.yaml", []byte(baseTestcase), nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ParseSymPurpose("tp.yaml", []byte(baseSym))
	if err := p.Check(tc, nil); err == nil || err.Error() != "tp.yaml:3:7: tc is a testcase, not a spec" {
		t.Errorf("Check against a testcase: %v", err)
	}
}

// FuzzParseSymPurpose: any bytes either fail with positioned errors or
// give a purpose that marshals, reads back and marshals to the same
// text; Check never panics.
func FuzzParseSymPurpose(f *testing.F) {
	for _, s := range []string{
		baseSym, "", "kind: sympurpose", "kind: sympurpose\naccept: [[a], [a, b], []]\n",
		"kind: sympurpose\nname: n\nspec: s\ncriterion: {length: 99999999999999999999}\naccept: [[delta, x]]\n",
		"kind: sympurpose\nname: n\nspec: s\naccept:\n  - &a [a]\n  - *a\n",
		"kind: sympurpose\nname: n\nspec: s\naccept: [['1', 'a: b', \"#\"]]\n",
	} {
		f.Add([]byte(s))
	}
	sp, err := ParseModel("spec.yaml", []byte(symSpec), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseSymPurpose("f.yaml", data)
		if err != nil {
			checkErrors(t, err)
			return
		}
		if err := p.Check(sp, nil); err != nil {
			checkErrors(t, err)
		}
		out, err := MarshalSymPurpose(p)
		if err != nil {
			t.Fatalf("MarshalSymPurpose: %v\n--- input\n%s", err, data)
		}
		back, err := ParseSymPurpose("f.yaml", out)
		if err != nil {
			t.Fatalf("reading back: %v\n--- input\n%s\n--- marshalled\n%s", err, data, out)
		}
		if again, err := MarshalSymPurpose(back); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("marshalled twice differs (%v):\n%s\n---\n%s", err, out, again)
		}
		if len(back.Accept) != len(p.Accept) || back.Criterion.Length != p.Criterion.Length || back.Criterion.Inclusion != p.Criterion.Inclusion {
			t.Fatalf("round trip changed the purpose:\n%s", out)
		}
		for i, a := range p.Accept {
			if spec.PathKey(a.Names) != spec.PathKey(back.Accept[i].Names) {
				t.Fatalf("path %d: %q, read back %q", i, a.Names, back.Accept[i].Names)
			}
		}
	})
}
