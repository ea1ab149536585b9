package testlong

import (
	"slices"
	"testing"
)

func TestEnabled(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  bool
	}{{"", false}, {"0", false}, {"false", false}, {"no", false}, {"1", true}, {"true", true}} {
		t.Setenv(Var, tt.value)
		if got := Enabled(); got != tt.want {
			t.Errorf("%s=%q: Enabled() = %v", Var, tt.value, got)
		}
		if got := Runs(2, 20); got != map[bool]int{false: 2, true: 20}[tt.want] {
			t.Errorf("%s=%q: Runs(2, 20) = %d", Var, tt.value, got)
		}
		even := func(i int, _ string) bool { return i%2 == 0 }
		want := []string{"a", "c"}
		if tt.want {
			want = []string{"a", "b", "c"}
		}
		if got := Pick([]string{"a", "b", "c"}, even); !slices.Equal(got, want) {
			t.Errorf("%s=%q: Pick = %v, want %v", Var, tt.value, got, want)
		}
	}
}

func TestProgress(t *testing.T) {
	p := NewProgress(t, "runs", 10)
	done := make(chan bool)
	for range 2 {
		go func() {
			for range 5 {
				p.Add(1)
			}
			done <- true
		}()
	}
	<-done
	<-done
	if p.done != 10 {
		t.Errorf("done %d, want 10", p.done)
	}
}
