package expr

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// TestRegexMembers: every member Member makes has the length asked and
// matches the pattern, both by the Regex and by Go's regexp; the
// lengths are those stated.
func TestRegexMembers(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		lengths []int // the first lengths, when the set is not every length
	}{
		{`^[A-Z][a-z]*$`, []int{1, 2, 3}},
		{`^[A-Z][a-z]+$`, []int{2, 3, 4}},
		{`^(ab|c){2,3}$`, []int{2, 3, 4, 5, 6}},
		{`^a{3}b?$`, []int{3, 4}},
		{`^$`, []int{0}},
		{`^x(yz)*$`, []int{1, 3, 5, 7}},
		{`^[0-9]{4}-[0-9]{2}$`, []int{7}},
		{`^(a|bc)*d$`, []int{1, 2, 3, 4}},
		{`ab`, []int{2, 3, 4}},
		{`^\w+@\w+\.com$`, []int{7, 8, 9}},
		{`^(?:[a-c]{0,2}x){2}$`, []int{2, 3, 4, 5, 6}},
		{`^[^a-z]$`, []int{1}},
	} {
		re, err := CompileRegex(tt.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		goRe := regexp.MustCompile(tt.pattern)
		m := NewMembers(re)
		ls := m.Lengths()
		if !slices.Equal(ls[:min(len(ls), len(tt.lengths))], tt.lengths) {
			t.Errorf("%s: lengths %v, want %v first", tt.pattern, ls, tt.lengths)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for _, n := range ls {
			for range 5 {
				s, ok := m.Member(rng, n)
				if !ok || len(s) != n || !re.MatchString(s) || !goRe.MatchString(s) {
					t.Errorf("%s: member of length %d: %q, %v", tt.pattern, n, s, ok)
				}
			}
		}
		for n := 0; n <= MaxMemberLen; n++ {
			if !slices.Contains(ls, n) {
				if s, ok := m.Member(rng, n); ok {
					t.Errorf("%s: member %q of length %d outside the lengths", tt.pattern, s, n)
				}
			}
		}
	}
}

// TestRegexLengthsExact: a length is in Lengths exactly when some
// string of that length over a small alphabet matches (exhaustively,
// up to 6 bytes).
func TestRegexLengthsExact(t *testing.T) {
	for _, p := range []string{`^(ab|c){2,3}$`, `^a?b+$`, `^(a|bb)*c?$`, `^(?:b{2}|a){1,2}$`, `^$|^a{3}$`} {
		re, err := CompileRegex(p)
		if err != nil {
			t.Fatal(err)
		}
		ls := NewMembers(re).Lengths()
		words := []string{""}
		for n := 0; n <= 6; n++ {
			any := false
			for _, w := range words {
				any = any || re.MatchString(w)
			}
			if any != slices.Contains(ls, n) {
				t.Errorf("%s: length %d: a member exists %v, Lengths %v", p, n, any, ls)
			}
			var next []string
			for _, w := range words {
				for _, c := range "abc" {
					next = append(next, w+string(c))
				}
			}
			words = next
		}
	}
}

// FuzzRegexMembers: for any pattern that compiles, Member never panics,
// and what it makes has the length asked and matches the pattern.
func FuzzRegexMembers(f *testing.F) {
	for _, p := range []string{`^[A-Z][a-z]*$`, `a|b{2,3}`, `^(x?y)*$`, `.`, `^$`, `[^a]{3}z`} {
		f.Add(p, uint64(1))
	}
	f.Fuzz(func(t *testing.T, pattern string, seed uint64) {
		re, err := CompileRegex(pattern)
		if err != nil {
			return
		}
		m := NewMembers(re)
		rng := rand.New(rand.NewPCG(seed, 3))
		for _, n := range m.Lengths() {
			s, ok := m.Member(rng, n)
			if !ok || len(s) != n || !re.MatchString(s) {
				t.Fatalf("%q: member of length %d: %q, %v", pattern, n, s, ok)
			}
		}
	})
}
