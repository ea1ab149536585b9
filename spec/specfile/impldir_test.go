package specfile

import (
	"strings"
	"testing"
)

// implDirSpec declares INTGR with an impl and the given extra keys.
func implDirSpec(extra string) string {
	return `kind: spec
name: d
functions:
  INTGR: {params: [int], result: int` + extra + `}
variables: {x: int}
actions: {a: {dir: input, params: {v: int}}}
locations: [q]
initial: {location: q}
transitions:
  - {from: q, action: a, assign: {x: INTGR(v)}, to: q}
`
}

// TestImplDir: dir: is the directory an impl: command runs in; it is
// kept by Marshal, and refused empty or without impl.
func TestImplDir(t *testing.T) {
	m, err := ParseModel("d.yaml", []byte(implDirSpec(`, impl: "python3 f.py", dir: ../lib`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := m.Func("INTGR"); f.Impl != "python3 f.py" || f.ImplDir != "../lib" {
		t.Fatalf("impl %q, dir %q", f.Impl, f.ImplDir)
	}
	out, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("d.yaml", out, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if f := back.Func("INTGR"); f.ImplDir != "../lib" {
		t.Errorf("dir lost by Marshal:\n%s", out)
	}
	for extra, want := range map[string]string{
		`, dir: ../lib`:                   "d.yaml:4:44: dir of INTGR without impl",
		`, impl: "python3 f.py", dir: ""`: "dir of INTGR is empty",
	} {
		_, err := ParseModel("d.yaml", []byte(implDirSpec(extra)), nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", extra, err, want)
		}
	}
}
