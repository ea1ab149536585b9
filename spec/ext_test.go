package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Tests of the model-language extensions: invariant, ranges, function
// tables, implementations and definitions, built-ins and arrays.

// firstError loads src (as m.yaml) and returns its first error.
func firstError(t *testing.T, src string) string {
	t.Helper()
	_, err := ParseModel("m.yaml", []byte(src), nil)
	if err == nil {
		return ""
	}
	return strings.SplitN(err.Error(), "\n", 2)[0]
}

// extSpec builds a spec with the given variables, functions and
// transitions (each a YAML flow line, indented by the caller's list).
func extSpec(extra string) string {
	return "kind: spec\nname: t\n" + extra
}

func TestExtLoadErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"range on real", extSpec("variables:\n  r: {type: real, range: [0, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:26: range is for int variables, not r (type real)"},
		{"range lo > hi", extSpec("variables:\n  x: {type: int, range: [3, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:25: empty range of x: 3 > 1"},
		{"range not integer", extSpec("variables:\n  x: {type: int, range: [0, 1.5]}\nactions: {}\ninitial: {location: A}\n"),
			`m.yaml:4:29: bound "1.5" of the range of x is not an integer`},
		{"range one bound", extSpec("variables:\n  x: {type: int, range: [0]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:25: range of x must be a list [lo, hi] of two integers"},
		{"variable without type", extSpec("variables:\n  x: {range: [0, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:3: variable x needs a type"},
		{"variable unknown key", extSpec("variables:\n  x: {type: int, rng: [0, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:18: unknown key rng in variable x (allowed: type, range)"},
		{"invariant not bool", extSpec("variables: {x: int}\ninvariant: x + 1\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:12: invariant x + 1 has type int, want bool"},
		{"invariant undeclared", extSpec("variables: {x: int}\ninvariant: \"y > 0\"\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:13: undeclared name y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := firstError(t, tt.src); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// roundTrip loads path, writes it, loads the result and writes it again:
// both texts must be equal and the models the same.
func roundTrip(t *testing.T, path string) *Model {
	t.Helper()
	m, err := LoadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel(path, out, nil)
	if err != nil {
		t.Fatalf("reading the marshalled model: %v\n%s", err, out)
	}
	again, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, again) {
		t.Errorf("Marshal(load(Marshal(m))) differs:\n%s\n---\n%s", out, again)
	}
	sameModel(t, m, back)
	return back
}

func TestExtRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/ext/*.yaml")
	for _, path := range files {
		data, _ := os.ReadFile(path)
		if k, _ := PeekKind(path, data); k != SpecKind {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) { roundTrip(t, path) })
	}
}

func TestRangeAndInvariant(t *testing.T) {
	m := roundTrip(t, "testdata/ext/ranges.yaml")
	if got := Format(m.RangeConstraint()); got != "0 <= TryCounter && TryCounter <= 2" {
		t.Errorf("RangeConstraint = %s", got)
	}
	if m.Invariant == nil || Format(m.Invariant) != "TryCounter <= 2 && x >= 0" {
		t.Errorf("Invariant = %v", m.Invariant)
	}
}
