package product

import (
	"testing"
)

func TestSeparator(t *testing.T) {
	tests := []struct {
		name   string
		ls, qs []string
		want   string
	}{
		{"plain", []string{"Rx", "Ry", "Fail"}, []string{"Wait", "Accept"}, ","},
		{"comma on one side", []string{"X,Y", "X"}, []string{"Z", "W"}, ","},
		{"commas on both sides, no clash", []string{"X,Y", "X"}, []string{"Y,W", "Z"}, ","},
		{"clash", []string{"X", "X,Y", "Fail"}, []string{"Y,Z", "Z"}, ";"},
		{"clash with ; too", []string{"X", "X,Y", "X;Y"}, []string{"Y,Z", "Z", "Y;Z"}, "|"},
		{"longer split", []string{"a", "a,b,c"}, []string{"b,c,d", "d"}, ";"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sep := separator(tt.ls, tt.qs)
			if sep != tt.want {
				t.Errorf("separator = %q, want %q", sep, tt.want)
			}
			// Whatever the separator, the names are pairwise distinct.
			seen := map[string][2]string{}
			for _, l := range tt.ls {
				for _, q := range tt.qs {
					n := l + sep + q
					if p, ok := seen[n]; ok {
						t.Errorf("(%s, %s) and (%s, %s) are both named %s", p[0], p[1], l, q, n)
					}
					seen[n] = [2]string{l, q}
				}
			}
		})
	}
}
