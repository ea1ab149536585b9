package abstraction

import (
	"sort"
	"strings"
	"testing"
)

func TestVertices(t *testing.T) {
	tests := []struct {
		name     string
		sp       *Space
		cs       []string
		integral bool
		want     string // the points, sorted, ";"-separated
	}{
		{"box", ispace("x", "y"), []string{"x >= 0", "x <= 2", "y >= 1", "y <= 3"}, true, "(0,1);(0,3);(2,1);(2,3)"},
		{"half vertex, rational", rspace("x", "y"), []string{"2*x = 1", "y >= 0", "y <= 1"}, false, "(1/2,0);(1/2,1)"},
		{"half vertex, filtered", rspace("x", "y"), []string{"2*x = 1", "y >= 0", "y <= 1"}, true, "(1/2,0);(1/2,1)"}, // rational dims: no filter
		{"triangle over integers", NewSpace([]string{"x", "y"}, []bool{true, false}), []string{"2*x + 2*y <= 3", "x >= 0", "y >= 0"}, true, "(0,0);(0,3/2)"},
		{"line", ispace("x", "y"), []string{"x = y"}, true, "(0,0)"},
		{"empty", ispace("x"), []string{"x >= 1", "x <= 0"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for pt := range Vertices(mkP(t, tt.sp, tt.cs...), tt.integral) {
				got = append(got, point(pt).String())
				if !contains(mkP(t, tt.sp, tt.cs...), pt) {
					t.Errorf("%s is not in the polyhedron", point(pt))
				}
			}
			sort.Strings(got)
			if s := strings.Join(got, ";"); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
	n := 0
	for range Vertices(Intervals().Universe(ispace("x")), false) {
		n++
	}
	if n != 0 {
		t.Errorf("an interval value yields %d points, want none", n)
	}
}
