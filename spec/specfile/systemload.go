package specfile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// LoadSystem reads the system file path and the component specs it
// names (paths relative to the system file's directory).
func LoadSystem(path string) (*spec.System, error) {
	data, err := ReadModelFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSystem(path, data)
}

var systemKeys = []string{"kind", "name", "components", "structure"}

// ParseSystem reads a system from data, as read from filename; the
// components are loaded from files relative to filename's directory.
// The error, if any, is an ErrorList of FILE:LINE:COL messages (in the
// system file or in a component's file).
func ParseSystem(filename string, data []byte) (*spec.System, error) {
	return parseSections(filename, data, spec.SystemKind, systemKeys, (*loader).system)
}

func (l *loader) system(root *yaml.Node, sec map[string]*yaml.Node) *spec.System {
	sys := &spec.System{File: l.file, Name: l.fileName(root, sec)}
	if n := sec["components"]; n == nil {
		l.errorf(root, "missing components: {Name: file.yaml, ...}")
	} else {
		l.components(sys, n)
	}
	if len(l.errs) > 0 {
		return nil
	}
	l.library(sys)
	if n := sec["structure"]; n == nil {
		l.errorf(root, `missing structure, e.g. "Hide([c], A * B)"`)
	} else {
		sys.Structure = l.structure(n)
		if sys.Structure != nil {
			l.checkStructure(sys, n)
		}
	}
	return sys
}

// components reads the components: mapping and loads each spec.
func (l *loader) components(sys *spec.System, n *yaml.Node) {
	dir := filepath.Dir(l.file)
	for _, kv := range l.mapping(n, "components", nil) {
		name, ok := l.ident(kv[0], "component")
		if !ok {
			continue
		}
		file, ok := l.scalar(kv[1], "the file of component "+name)
		if !ok {
			continue
		}
		path := file
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, file)
		}
		c := &spec.Component{Name: name, Path: path, Pos: l.pos(kv[0])}
		m, err := LoadFile(path, nil)
		switch {
		case err != nil:
			if list, ok := err.(expr.ErrorList); ok {
				l.errs = append(l.errs, list...)
			} else {
				l.errorf(kv[1], "component %s: cannot read %s: %v", name, file, rootCause(err))
			}
			continue
		case m.Kind != spec.SpecKind:
			l.errorf(kv[1], "component %s: %s is a %s, not a spec", name, file, m.Kind)
			continue
		case len(m.Funcs) > 0 || len(m.Arrays) > 0 || m.Tables != "":
			l.errorf(kv[1], "component %s: functions, tables and arrays are not supported in a system's components yet", name)
			continue
		}
		for _, v := range m.Variables {
			if strings.Contains(v.Name, ".") {
				l.errs.Add(v.Pos, "variable %s of component %s is already qualified: a component is a flat spec", v.Name, name)
			}
		}
		c.Model = m
		sys.Components = append(sys.Components, c)
	}
	if len(sys.Components) == 0 && len(l.errs) == 0 {
		l.errorf(n, "a system needs at least one component")
	}
}

// rootCause strips the path an os error repeats.
func rootCause(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// library checks Def 6 on the components: named transitions, distinct
// across the library; channels of one signature (types, one emitter,
// not internal elsewhere); enumerated types that agree. An unnamed
// transition gets its automatic name (AutoName), distinct from every
// name of the library.
func (l *loader) library(sys *spec.System) {
	names := map[string]string{} // transition name -> "component (position)"
	for _, c := range sys.Components {
		for _, t := range c.Model.Transitions {
			switch prev, dup := names[t.Name]; {
			case t.Name == "":
			case dup:
				l.errs.Add(t.Pos, "transition name %s of component %s is already used by %s: names are distinct across a system's components", t.Name, c.Name, prev)
			default:
				names[t.Name] = fmt.Sprintf("%s (%s)", c.Name, t.Pos)
			}
		}
	}
	for _, c := range sys.Components {
		for _, t := range c.Model.Transitions {
			if t.Name == "" {
				t.Name = spec.AutoName(t, func(n string) bool { _, ok := names[n]; return ok })
				names[t.Name] = fmt.Sprintf("%s (%s)", c.Name, t.Pos)
			}
		}
	}
	type use struct {
		comp *spec.Component
		act  *spec.Action
	}
	first := map[string]use{}
	emitter := map[string]use{}
	for _, c := range sys.Components {
		for _, a := range c.Model.Actions {
			if a.Dir == spec.Output {
				if e, ok := emitter[a.Name]; ok {
					l.errs.Add(a.Pos, "channel %s is an output of both %s and %s: at most one component emits on a channel", a.Name, e.comp.Name, c.Name)
				} else {
					emitter[a.Name] = use{c, a}
				}
			}
			f, ok := first[a.Name]
			if !ok {
				first[a.Name] = use{c, a}
				continue
			}
			if (f.act.Dir == spec.Internal) != (a.Dir == spec.Internal) {
				l.errs.Add(a.Pos, "action %s is internal in one of %s and %s and a channel in the other", a.Name, f.comp.Name, c.Name)
			} else if !sameSignature(f.act, a) {
				l.errs.Add(a.Pos, "channel %s of %s has parameters %s, which do not fit %s in %s", a.Name, c.Name, signature(a), signature(f.act), f.comp.Name)
			}
		}
	}
	l.libraryEnums(sys)
}

func sameSignature(a, b *spec.Action) bool {
	if len(a.Params) != len(b.Params) {
		return false
	}
	for i, p := range a.Params {
		if !sameType(p.Type, b.Params[i].Type) || !expr.SameRange(p.Range, b.Params[i].Range) {
			return false
		}
	}
	return true
}

// sameType compares types across components: enumerated types by name
// and values (each component has its own *Enum).
func sameType(a, b expr.Type) bool {
	if a.Kind != expr.EnumKind || b.Kind != expr.EnumKind {
		return a == b
	}
	return a.Enum.Name == b.Enum.Name && strings.Join(a.Enum.Values, ",") == strings.Join(b.Enum.Values, ",")
}

func signature(a *spec.Action) string {
	var ps []string
	for _, p := range a.Params {
		ps = append(ps, p.String())
	}
	return "(" + strings.Join(ps, ", ") + ")"
}

// libraryEnums checks that an enumerated type declared by several
// components has the same values in each, and that a constant belongs
// to one type only.
func (l *loader) libraryEnums(sys *spec.System) {
	types := map[string]*expr.Enum{}
	consts := map[string]string{}
	for _, c := range sys.Components {
		for _, e := range c.Model.Enums {
			if prev, ok := types[e.Name]; ok {
				if !sameType(expr.EnumType(prev), expr.EnumType(e)) {
					l.errs.Add(e.Pos, "type %s of component %s has values %v, another component declares %v", e.Name, c.Name, e.Values, prev.Values)
				}
				continue
			}
			types[e.Name] = e
			for _, v := range e.Values {
				if t, ok := consts[v]; ok && t != e.Name {
					l.errs.Add(e.Pos, "constant %s of type %s (component %s) is also a constant of type %s", v, e.Name, c.Name, t)
				}
				consts[v] = e.Name
			}
		}
	}
}

// checkStructure checks that every component is used exactly once and
// that each hidden channel is a channel of the part it hides.
func (l *loader) checkStructure(sys *spec.System, n *yaml.Node) {
	used := map[string]bool{}
	unknown := false
	var walk func(s *spec.Structure) map[string]bool
	walk = func(s *spec.Structure) map[string]bool {
		chans := map[string]bool{}
		switch s.Op {
		case spec.Leaf:
			c := sys.Component(s.Component)
			if c == nil {
				l.errs.Add(s.Pos, "unknown component %s (components: %s)", s.Component, strings.Join(componentNames(sys), ", "))
				unknown = true
				return nil
			}
			if used[s.Component] {
				l.errs.Add(s.Pos, "component %s is used twice in the structure", s.Component)
			}
			used[s.Component] = true
			for _, a := range c.Model.Actions {
				if a.Dir != spec.Internal {
					chans[a.Name] = true
				}
			}
		default:
			for _, p := range s.Parts {
				for c := range walk(p) {
					chans[c] = true
				}
			}
		}
		if s.Op == spec.Hiding && len(l.errs) == 0 {
			for _, c := range s.Hidden {
				if !chans[c] {
					l.errs.Add(s.Pos, "unknown hidden channel %s: not a channel of %s", c, s.Parts[0])
				}
			}
		}
		return chans
	}
	walk(sys.Structure)
	for _, c := range sys.Components {
		if !used[c.Name] && !unknown {
			l.errorf(n, "component %s is not used in the structure", c.Name)
		}
	}
}

func componentNames(sys *spec.System) []string {
	var ns []string
	for _, c := range sys.Components {
		ns = append(ns, c.Name)
	}
	sort.Strings(ns)
	return ns
}

// varName reads the name of a variable: an identifier, or, in a
// composed system's flat spec, a component's variable qualified by its
// component's name (Int.b).
func (l *loader) varName(n *yaml.Node) (string, bool) {
	comp, x, qualified := strings.Cut(n.Value, ".")
	if !qualified {
		return l.ident(n, "variable")
	}
	for _, part := range []string{comp, x} {
		c := *n
		c.Value = part
		if _, ok := l.ident(&c, "variable"); !ok {
			return n.Value, false
		}
	}
	return n.Value, true
}
