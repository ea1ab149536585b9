package abstraction

import "strconv"

// A Space names the dimensions of a domain value. Int[i] reports whether
// dimension i ranges over the integers (otherwise over the rationals).
// A Space is not modified by this package; values share it.
type Space struct {
	Names []string
	Int   []bool
}

// NewSpace returns a space with the given dimension names. isInt may be
// shorter than names (or nil); missing entries mean "rational".
func NewSpace(names []string, isInt []bool) *Space {
	s := &Space{Names: append([]string(nil), names...), Int: make([]bool, len(names))}
	copy(s.Int, isInt)
	return s
}

// Dim returns the number of dimensions.
func (s *Space) Dim() int { return len(s.Names) }

// Index returns the dimension named name, or -1 if there is none.
func (s *Space) Index(name string) int {
	for i, n := range s.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// isInt reports whether dimension i is an integer dimension.
func (s *Space) isInt(i int) bool { return i < len(s.Int) && s.Int[i] }

// name returns a printable name for dimension i.
func (s *Space) name(i int) string {
	if s != nil && i < len(s.Names) && s.Names[i] != "" {
		return s.Names[i]
	}
	return "x" + strconv.Itoa(i)
}

// checkSameDim panics if the two spaces differ in dimension: combining
// values of different spaces is a programming error.
func checkSameDim(a, b *Space) {
	if a.Dim() != b.Dim() {
		panic("abstraction: space dimension mismatch")
	}
}
