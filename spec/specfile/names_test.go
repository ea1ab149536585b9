package specfile

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestSystemAutoNames: the unnamed transitions of a system's components
// get their automatic names, FROM-ACTION-TO, made distinct from every
// name of the library.
func TestSystemAutoNames(t *testing.T) {
	a := strings.Replace(sysA, "{name: tau, ", "{name: b1-d-b0, ", 1) // takes B's automatic name
	b := strings.Replace(strings.Replace(sysB, "{name: out, ", "{", 1), "{name: i, ", "{", 1)
	dir := writeFiles(t, map[string]string{"a.yaml": a, "b.yaml": b,
		"s.yaml": "kind: system\nname: s\ncomponents: {A: a.yaml, B: b.yaml}\nstructure: \"A * B\"\n"})
	sys, err := LoadSystem(filepath.Join(dir, "s.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range sys.Component("B").Model.Transitions {
		got = append(got, tr.Name)
	}
	if want := "b0-c-b1,b1-d-b0-2"; strings.Join(got, ",") != want {
		t.Errorf("B's names %v, want %s", got, want)
	}
}

// TestAutoName: the base name, and the first free suffix.
func TestAutoName(t *testing.T) {
	tr := &spec.Transition{From: "A", Action: "go", To: "B"}
	taken := map[string]bool{"A-go-B": true, "A-go-B-2": true}
	if got := spec.AutoName(tr, func(n string) bool { return taken[n] }); got != "A-go-B-3" {
		t.Errorf("AutoName = %s", got)
	}
	if got := spec.AutoName(tr, func(string) bool { return false }); got != "A-go-B" {
		t.Errorf("AutoName = %s", got)
	}
}
