package spec

import (
	"strings"

	"github.com/stg-tool/stg/spec/expr"
)

// System is a file of kind system: a library of named components, each
// a spec, and the structure that builds a system from them by
// composition and hiding (Faivre, Gaston and Le Gall, "Symbolic
// model based testing for component oriented systems", TestCom/FATES
// 2007, Defs 6 and 7). The
// system's ioSTS is built by package compose.
//
// LoadSystem checks what the paper requires of a library (Def 6): every
// transition of every component is named and the names are distinct
// across the library; channels are shared by name, so an action of the
// same name in two components has the same parameter types and at most
// one component emits it; hidden channels are channels of the part they
// hide.
type System struct {
	Name       string
	File       string
	Components []*Component // in the order of the file
	Structure  *Structure
}

// Component is a named component of a system and its loaded spec.
// Its variables keep their own names here; in the composed system they
// are qualified by the component's name (Int.b).
type Component struct {
	Name  string
	Path  string // the spec file, relative to the working directory
	Model *Model
	Pos   expr.Pos // of the component's entry in the system file
}

// StructureOp is the operator of a node of a system's structure.
type StructureOp int

const (
	Leaf    StructureOp = iota // a component
	Product                    // the composition of two systems (n1 ⊗ n2)
	Hiding                     // Hide(C, n)
)

// Structure is a system name (the set SN of the paper): a component,
// the composition of Parts[0] and Parts[1], or Parts[0] with the
// channels Hidden hidden.
type Structure struct {
	Op        StructureOp
	Component string       // Leaf
	Parts     []*Structure // Product: two; Hiding: one
	Hidden    []string     // Hiding
	Pos       expr.Pos
}

// String writes s in the syntax of the structure: key,
// e.g. "Hide([int_bet, int_win], Int * SM)".
func (s *Structure) String() string {
	switch s.Op {
	case Product:
		l, r := s.Parts[0].String(), s.Parts[1].String()
		if s.Parts[1].Op == Product {
			r = "(" + r + ")"
		}
		return l + " * " + r
	case Hiding:
		return "Hide([" + strings.Join(s.Hidden, ", ") + "], " + s.Parts[0].String() + ")"
	}
	return s.Component
}

// Leaves returns the components of s from left to right.
func (s *Structure) Leaves() []string {
	if s.Op == Leaf {
		return []string{s.Component}
	}
	var ls []string
	for _, p := range s.Parts {
		ls = append(ls, p.Leaves()...)
	}
	return ls
}

// Component returns the component called name, or nil.
func (s *System) Component(name string) *Component {
	for _, c := range s.Components {
		if c.Name == name {
			return c
		}
	}
	return nil
}
