package specfile

import (
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// structure reads the structure: of a system, either a text
//
//	Hide([c1, c2], A * B)      (* or ⊗ for composition, left-associative)
//
// or its structured form: a component's name, {compose: [A, B, ...]} or
// {hide: [c1, c2], of: ...}.
func (l *loader) structure(n *yaml.Node) *spec.Structure {
	switch n.Kind {
	case yaml.ScalarNode:
		p := &structParser{l: l, src: n.Value, base: l.exprPos(n)}
		s := p.product()
		if s != nil && p.next() != "" {
			p.fail("unexpected %q after the structure", p.next())
			return nil
		}
		return s
	case yaml.MappingNode:
		return l.structureMap(n)
	}
	l.errorf(n, `a structure is a text such as "Hide([c], A * B)", or a mapping {compose: [...]} or {hide: [...], of: ...}`)
	return nil
}

func (l *loader) structureMap(n *yaml.Node) *spec.Structure {
	f := map[string]*yaml.Node{}
	for _, kv := range l.mapping(n, "a structure", []string{"compose", "hide", "of"}) {
		f[kv[0].Value] = kv[1]
	}
	switch {
	case f["compose"] != nil && f["hide"] == nil && f["of"] == nil:
		parts := l.sequence(f["compose"], "compose")
		if len(parts) < 2 {
			l.errorf(f["compose"], "compose needs at least two parts")
			return nil
		}
		var s *spec.Structure
		for _, pn := range parts {
			p := l.structure(pn)
			if p == nil {
				return nil
			}
			if s == nil {
				s = p
			} else {
				s = &spec.Structure{Op: spec.Product, Parts: []*spec.Structure{s, p}, Pos: l.pos(n)}
			}
		}
		return s
	case f["hide"] != nil && f["of"] != nil && f["compose"] == nil:
		s := &spec.Structure{Op: spec.Hiding, Pos: l.pos(n)}
		for _, cn := range l.sequence(f["hide"], "hide") {
			if c, ok := l.ident(cn, "hidden channel"); ok {
				s.Hidden = append(s.Hidden, c)
			}
		}
		of := l.structure(f["of"])
		if of == nil {
			return nil
		}
		s.Parts = []*spec.Structure{of}
		return s
	}
	if len(l.errs) == 0 {
		l.errorf(n, "a structure mapping is {compose: [A, B, ...]} or {hide: [channels], of: STRUCTURE}")
	}
	return nil
}

// structParser reads the text form of a structure, reporting errors at
// their column in the system file.
type structParser struct {
	l    *loader
	src  string
	off  int // byte offset of the next token
	base expr.Pos
	err  bool
}

func (p *structParser) pos() expr.Pos {
	return expr.Shift(p.base, 1, 1+utf8.RuneCountInString(p.src[:p.off]))
}

func (p *structParser) fail(format string, args ...any) {
	if !p.err {
		p.l.errs.Add(p.pos(), format, args...)
		p.err = true
	}
}

// next returns the next token without consuming it: an identifier, one
// of ( ) [ ] , * ⊗, or "" at the end.
func (p *structParser) next() string {
	for p.off < len(p.src) && (p.src[p.off] == ' ' || p.src[p.off] == '\t' || p.src[p.off] == '\n') {
		p.off++
	}
	if p.off == len(p.src) {
		return ""
	}
	r, size := utf8.DecodeRuneInString(p.src[p.off:])
	if !isIdentRune(r, true) {
		return p.src[p.off : p.off+size]
	}
	end := p.off
	for end < len(p.src) {
		r, size := utf8.DecodeRuneInString(p.src[end:])
		if !isIdentRune(r, end == p.off) {
			break
		}
		end += size
	}
	return p.src[p.off:end]
}

func isIdentRune(r rune, first bool) bool {
	return r == '_' || unicode.IsLetter(r) || (!first && unicode.IsDigit(r))
}

func (p *structParser) take() string {
	t := p.next()
	p.off += len(t)
	return t
}

func (p *structParser) expect(tok string) bool {
	if p.next() != tok {
		what := p.next()
		if what == "" {
			what = "the end"
		}
		p.fail("expected %s in the structure, found %q", tok, what)
		return false
	}
	p.take()
	return true
}

// product reads term (("*" | "⊗") term)*.
func (p *structParser) product() *spec.Structure {
	s := p.term()
	for s != nil && (p.next() == "*" || p.next() == "⊗") {
		pos := p.pos()
		p.take()
		r := p.term()
		if r == nil {
			return nil
		}
		s = &spec.Structure{Op: spec.Product, Parts: []*spec.Structure{s, r}, Pos: pos}
	}
	return s
}

// term reads a component, (product) or Hide([c, ...], product).
func (p *structParser) term() *spec.Structure {
	t := p.next() // skips the blanks before pos
	pos := p.pos()
	switch {
	case t == "(":
		p.take()
		s := p.product()
		if s == nil || !p.expect(")") {
			return nil
		}
		return s
	case t == "Hide":
		p.take()
		return p.hide(pos)
	case t != "" && isIdentRune([]rune(t)[0], true):
		p.take()
		return &spec.Structure{Op: spec.Leaf, Component: t, Pos: pos}
	case t == "":
		p.fail("the structure ends where a component was expected")
	default:
		p.fail("unexpected %q in the structure: expected a component, ( or Hide", t)
	}
	return nil
}

func (p *structParser) hide(pos expr.Pos) *spec.Structure {
	s := &spec.Structure{Op: spec.Hiding, Pos: pos}
	if !p.expect("(") || !p.expect("[") {
		return nil
	}
	for p.next() != "]" {
		t := p.next()
		if t == "" || !isIdentRune([]rune(t)[0], true) {
			p.fail("expected a channel name in Hide's list, found %q", t)
			return nil
		}
		p.take()
		s.Hidden = append(s.Hidden, t)
		if p.next() == "," {
			p.take()
		} else if p.next() != "]" {
			p.fail("expected , or ] in Hide's list, found %q", p.next())
			return nil
		}
	}
	p.take()
	if !p.expect(",") {
		return nil
	}
	of := p.product()
	if of == nil || !p.expect(")") {
		return nil
	}
	s.Parts = []*spec.Structure{of}
	return s
}
