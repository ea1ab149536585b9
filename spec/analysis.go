package spec

import (
	"github.com/stg-tool/stg/spec/expr"
)

// Analysis is the optional analysis: section of a test case (stg
// generate --annotate): per location of the test case that is a
// location of the product of spec and purpose, the over-approximations
// of the variables' values the co-reachability analysis computed (the
// ones stg generate --explain prints). Readers that do not need it
// ignore it; the writer writes it back as read.
type Analysis struct {
	// Domain is the abstract domain of the analysis (none, interval or
	// polyhedra), or "" when the file does not say.
	Domain    string
	Locations []*LocationAnalysis // in the order of the file
}

// LocationAnalysis is what the analysis says of one location.
type LocationAnalysis struct {
	Location string
	// Reach: the values with which the location may be entered from
	// the initial condition; Coreach: those from which Accept may still
	// be reached. Both over-approximate.
	Reach, Coreach expr.Expr
	Pos            expr.Pos
}

// Of returns what a says of location loc, or nil (a nil a says nothing).
func (a *Analysis) Of(loc string) *LocationAnalysis {
	if a == nil {
		return nil
	}
	for _, la := range a.Locations {
		if la.Location == loc {
			return la
		}
	}
	return nil
}
