package pipeline

import "testing"

func TestWarning(t *testing.T) {
	for _, tt := range []struct{ note, want string }{
		{"spec.yaml:12:5: quiescence in Rx is over-approximated", "spec.yaml:12:5: warning: quiescence in Rx is over-approximated"},
		{"dir/a b/spec.yaml:1:2: x: y", "dir/a b/spec.yaml:1:2: warning: x: y"},
		{"3:4: no file", "3:4: warning: no file"},
		{"test case tc: no run reaches Pass", "stg: warning: test case tc: no run reaches Pass"},
		{"time: 3:4 is not a position\n", "stg: warning: time: 3:4 is not a position"},
	} {
		if got := Warning(tt.note); got != tt.want {
			t.Errorf("Warning(%q) = %q, want %q", tt.note, got, tt.want)
		}
	}
}
