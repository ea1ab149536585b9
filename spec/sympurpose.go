package spec

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stg-tool/stg/spec/expr"
)

// SymPurpose is a symbolic test purpose (docs/reference.md#trace-files; Def 13 of
// Gaston et al., the AGATHA paper): a set of accept nodes of the
// symbolic execution tree of a spec, each named by its path of
// transition names from the root.
//
//	kind: sympurpose
//	name: atm-TG2-eta11
//	spec: spec.yaml             # relative to this file
//	criterion: {length: 2}      # optional, informative
//	accept:
//	  - [deposit, ask, cash]
//
// ParseSymPurpose checks the file's format; Check checks the paths
// against the spec.
type SymPurpose struct {
	Name      string
	File      string // the file it was read from, or ""
	Spec      string // the spec's path as written, relative to File's directory
	SpecPos   expr.Pos
	Criterion Criterion
	Accept    []AcceptPath
}

// Criterion says how a symbolic purpose was built. It is informative:
// nothing in stg depends on it. At most one of Length and Inclusion is
// non-zero; both are zero when the file has no criterion.
type Criterion struct {
	Length    int // {length: N}: the accept nodes of depth N (TG_n)
	Inclusion int // {k-inclusion: K}: the k-inclusion criterion
	Pos       expr.Pos
}

// AcceptPath names an accept node by the transition names on its path
// from the root of the symbolic execution tree; Delta names quiescence.
type AcceptPath struct {
	Names   []string
	Pos     expr.Pos   // the list
	NamePos []expr.Pos // each name, when read from a file
	// Constraint is the accept node's external constraint, as written
	// ("" for none; see sympurposeec.go).
	Constraint    string
	ConstraintPos expr.Pos
}

// String returns the path as its names separated by spaces.
func (a AcceptPath) String() string { return strings.Join(a.Names, " ") }

// SpecPath returns the path of the spec file: Spec, relative to the
// directory of File unless it is absolute.
func (p *SymPurpose) SpecPath() string {
	if filepath.IsAbs(p.Spec) || p.File == "" {
		return p.Spec
	}
	return filepath.Join(filepath.Dir(p.File), p.Spec)
}

// PathKey is a map key for a path (names are length-prefixed, so no
// two paths share a key).
func PathKey(names []string) string {
	var b strings.Builder
	for _, s := range names {
		fmt.Fprintf(&b, "%d:%s\x00", len(s), s)
	}
	return b.String()
}

// Check checks the accept paths against the spec m, syntactically
// (without a solver), by the rules of Def 13:
//
//   - each name is the name of a transition of m, or Delta;
//   - the names chain: the first transition leaves m's initial location,
//     each next one leaves the target of the previous, and Delta, which
//     ends a path, is followed by nothing;
//   - the last step is an output or Delta (every accept node is the
//     target of an output transition);
//   - no path is a strict prefix of another (no accept node is an
//     ancestor of another).
//
// names gives a transition's name (nil: its Name field), so that names
// generated for unnamed transitions are accepted. Whether a path is
// feasible (its path condition satisfiable) is left to the symbolic
// execution. The error, if any, is an ErrorList positioned in p's file.
func (p *SymPurpose) Check(m *Model, names func(*Transition) string) error {
	if names == nil {
		names = func(t *Transition) string { return t.Name }
	}
	var errs expr.ErrorList
	if m.Kind != SpecKind {
		errs.Add(p.SpecPos, "%s is a %s, not a spec", m.Name, m.Kind)
		return errs.Err()
	}
	known := map[string]string{} // name -> the location it leaves
	for _, t := range m.Transitions {
		if n := names(t); known[n] == "" {
			known[n] = t.From
		}
	}
	for _, a := range p.Accept {
		p.checkPath(m, a, names, known, &errs)
	}
	p.checkAncestors(&errs)
	return errs.Err()
}

// checkPath follows one accept path from m's initial location.
func (p *SymPurpose) checkPath(m *Model, a AcceptPath, names func(*Transition) string, known map[string]string, errs *expr.ErrorList) {
	at := m.Initial.Location
	var last *Transition
	for i, name := range a.Names {
		pos := a.namePos(i)
		if i > 0 && a.Names[i-1] == Delta {
			errs.Add(pos, "%s follows delta: quiescence ends an accept path", name)
			return
		}
		if name == Delta {
			last = nil
			continue
		}
		var cands []*Transition
		for _, t := range m.Outgoing(at) {
			if names(t) == name {
				cands = append(cands, t)
			}
		}
		switch {
		case len(cands) == 1:
			last, at = cands[0], cands[0].To
			continue
		case len(cands) > 1:
			errs.Add(pos, "transition name %s is ambiguous: %d transitions of %s leave %s with it (%s, %s)",
				name, len(cands), m.Name, at, cands[0].Pos, cands[1].Pos)
		case known[name] != "" && i == 0:
			errs.Add(pos, "transition %s leaves %s, not the initial location %s", name, known[name], at)
		case known[name] != "":
			errs.Add(pos, "transition %s leaves %s, not %s, the target of %s", name, known[name], at, a.Names[i-1])
		default:
			errs.Add(pos, "%s is not the name of a transition of %s", name, m.Name)
		}
		return
	}
	if last != nil {
		if act := m.Action(last.Action); act == nil || act.Dir != Output {
			errs.Add(a.namePos(len(a.Names)-1), "accept path [%s] ends with %s, not with an output or delta: every accept node is the target of an output (Def 13)",
				strings.Join(a.Names, ", "), a.Names[len(a.Names)-1])
		}
	}
}

// checkAncestors reports the paths that extend another accept path.
func (p *SymPurpose) checkAncestors(errs *expr.ErrorList) {
	full := map[string]int{}
	for i, a := range p.Accept {
		full[PathKey(a.Names)] = i
	}
	for _, a := range p.Accept {
		for n := len(a.Names) - 1; n > 0; n-- {
			if j, ok := full[PathKey(a.Names[:n])]; ok {
				anc := p.Accept[j]
				errs.Add(a.Pos, "accept path [%s] extends accept path [%s] (line %d): no accept node is an ancestor of another (Def 13)",
					strings.Join(a.Names, ", "), strings.Join(anc.Names, ", "), anc.Pos.Line)
				break
			}
		}
	}
}

// namePos returns the position of the i-th name, or of the path.
func (a AcceptPath) namePos(i int) expr.Pos {
	if i < len(a.NamePos) && a.NamePos[i].IsValid() {
		return a.NamePos[i]
	}
	return a.Pos
}
