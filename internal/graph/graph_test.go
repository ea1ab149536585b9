package graph

import (
	"maps"
	"testing"
)

// edges is a small graph with a cycle, a self-loop, a node only
// reached backwards and an isolated node.
var edges = map[string][]string{
	"a": {"b", "c"},
	"b": {"d"},
	"c": {"d", "c"},
	"d": {"a"},
	"e": {"a"},
	"f": nil,
}

func succ(n string) []string { return edges[n] }

func pred(n string) []string {
	var ps []string
	for _, from := range []string{"a", "b", "c", "d", "e", "f"} {
		for _, to := range edges[from] {
			if to == n {
				ps = append(ps, from)
			}
		}
	}
	return ps
}

func TestDistances(t *testing.T) {
	tests := []struct {
		name  string
		seeds []string
		next  func(string) []string
		want  map[string]int
	}{
		{"forward from a", []string{"a"}, succ, map[string]int{"a": 0, "b": 1, "c": 1, "d": 2}},
		{"forward from e", []string{"e"}, succ, map[string]int{"e": 0, "a": 1, "b": 2, "c": 2, "d": 3}},
		{"backward to d", []string{"d"}, pred, map[string]int{"d": 0, "b": 1, "c": 1, "a": 2, "e": 3}},
		{"two seeds, repeated", []string{"d", "b", "d"}, succ, map[string]int{"d": 0, "b": 0, "a": 1, "c": 2}},
		{"isolated", []string{"f"}, succ, map[string]int{"f": 0}},
		{"no seed", nil, succ, map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Distances(tt.seeds, tt.next); !maps.Equal(got, tt.want) {
				t.Errorf("Distances = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReach(t *testing.T) {
	got := Reach([]int{0}, func(n int) []int {
		if n < 5 {
			return []int{n + 1, n}
		}
		return nil
	})
	want := map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true, 5: true}
	if !maps.Equal(got, want) {
		t.Errorf("Reach = %v, want %v", got, want)
	}
}
