package expr

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// RegexOp is the operator of a Regex node.
type RegexOp int

const (
	ReNone    RegexOp = iota // matches no string
	ReEpsilon                // matches the empty string only
	ReLit                    // matches Lit
	ReClass                  // matches one byte in Ranges
	ReAll                    // matches every string
	ReConcat                 // Subs in sequence
	ReUnion                  // one of Subs
	ReStar                   // Subs[0] zero or more times
	ReLoop                   // Subs[0] from Min to Max times (Max < 0: unbounded)
)

// ByteRange is the range of bytes Lo..Hi, inclusive.
type ByteRange struct{ Lo, Hi byte }

// A Regex is a regular expression over bytes with whole-string
// semantics, the form into which regexp.MatchString patterns are
// translated (CompileRegex) and which the solver maps onto Z3's
// regular expressions (re.range, re.++, re.union, re.*, re.loop,
// re.all). Its language is exactly the set of strings on which
// MatchString reports true.
type Regex struct {
	Op       RegexOp
	Lit      string      // ReLit
	Ranges   []ByteRange // ReClass
	Subs     []*Regex
	Min, Max int // ReLoop

	once sync.Once
	prog *nfa // the automaton MatchString runs, made on first use
}

// RegexError is a pattern that cannot be translated; Offset is the byte
// offset in the pattern of the offending syntax (0 when unknown).
type RegexError struct {
	Offset int
	Msg    string
}

func (e *RegexError) Error() string { return e.Msg }

// maxRepeat bounds {n,m}, as RE2 does.
const maxRepeat = 1000

// CompileRegex translates an RE2 pattern (Go's regexp syntax) into a
// Regex with whole-string semantics. RE2 searches: an unanchored
// pattern matches when some substring matches, so the translation of
// re is .*re.* unless re starts with ^ (then no leading .*) or ends
// with $ (no trailing .*); ^ and $ are accepted only there (at the ends
// of the whole pattern or of a top-level alternative).
//
// The supported subset: literals, ., character classes ([a-z], [^...],
// \d \w \s and their negations, [[:alpha:]]), grouping (capturing or
// (?:...)), |, *, +, ?, {n}, {n,}, {n,m}, and the flag s. Refused, with
// the offset of the offending syntax: backreferences and lookaround
// (which RE2 refuses too), \b \B, \A \z, the flags i, m and U, and
// classes naming non-ASCII characters. Strings are sequences of bytes:
// . and a negated class match one byte, so on non-ASCII text they
// differ from Go's, which match one UTF-8 encoded character.
func CompileRegex(pattern string) (*Regex, error) {
	if i := unsupportedFlag(pattern); i >= 0 {
		if strings.ContainsRune("=!<", rune(pattern[i+2])) {
			return nil, &RegexError{i, "lookaround is not supported (RE2 has none)"}
		}
		return nil, &RegexError{i, fmt.Sprintf("flag group %q is not supported (only (?:...) and (?s))", flagText(pattern[i:]))}
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		off := 0
		msg := err.Error()
		if se, ok := err.(*syntax.Error); ok {
			if i := strings.Index(pattern, se.Expr); i >= 0 && se.Expr != "" {
				off = i
			}
			msg = fmt.Sprintf("%s: %s (RE2 has no backreferences or lookaround)", se.Code, se.Expr)
		}
		return nil, &RegexError{off, "invalid regular expression: " + msg}
	}
	tr := &reTranslator{pattern: pattern}
	var alts []*Regex
	branches := tr.alternatives(re)
	if tr.err != nil {
		return nil, tr.err
	}
	for _, branch := range branches {
		r := tr.branch(branch)
		if tr.err != nil {
			return nil, tr.err
		}
		alts = append(alts, r)
	}
	r := reUnion(alts...)
	if _, err := compileNFA(r); err != nil {
		return nil, &RegexError{0, err.Error()}
	}
	return r, nil
}

// unsupportedFlag returns the offset of a (?flags) group other than
// (?:...) and (?s), or -1.
func unsupportedFlag(p string) int {
	for i := 0; i+2 < len(p); i++ {
		if p[i] == '\\' {
			i++
			continue
		}
		if p[i] != '(' || p[i+1] != '?' {
			continue
		}
		j := i + 2
		if strings.HasPrefix(p[j:], "P<") || p[j] == '<' && j+1 < len(p) && p[j+1] != '=' && p[j+1] != '!' {
			continue // a named group
		}
		for j < len(p) && p[j] != ')' && p[j] != ':' {
			if p[j] != 's' {
				return i
			}
			j++
		}
	}
	return -1
}

func flagText(s string) string {
	if i := strings.IndexAny(s, ":)"); i >= 0 {
		return s[:i+1]
	}
	return s
}

// maxBranches bounds the alternatives made by distributing a
// concatenation over the alternations that hold anchors.
const maxBranches = 64

// alternatives returns re as a union of concatenations in which ^ and $
// only occur directly (not inside an alternation): captures are removed
// and a concatenation is distributed over those of its alternations
// that hold an anchor (RE2's parser factors ^ab|^ac into ^a(?:b|c)).
func (t *reTranslator) alternatives(re *syntax.Regexp) []*syntax.Regexp {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	switch re.Op {
	case syntax.OpAlternate:
		var out []*syntax.Regexp
		for _, s := range re.Sub {
			out = append(out, t.alternatives(s)...)
		}
		return t.capped(out)
	case syntax.OpConcat:
		out := [][]*syntax.Regexp{nil}
		for _, s := range re.Sub {
			alts := []*syntax.Regexp{s}
			if hasAnchor(s) {
				alts = t.alternatives(s)
			}
			var next [][]*syntax.Regexp
			for _, prefix := range out {
				for _, a := range alts {
					seq := append(append([]*syntax.Regexp(nil), prefix...), a)
					if a.Op == syntax.OpConcat {
						seq = append(append([]*syntax.Regexp(nil), prefix...), a.Sub...)
					}
					next = append(next, seq)
				}
			}
			if len(next) > maxBranches {
				t.fail("^", "too many alternatives around ^ or $ (more than %d)", maxBranches)
				return nil
			}
			out = next
		}
		res := make([]*syntax.Regexp, len(out))
		for i, seq := range out {
			res[i] = &syntax.Regexp{Op: syntax.OpConcat, Sub: seq}
		}
		return res
	}
	return []*syntax.Regexp{re}
}

func (t *reTranslator) capped(rs []*syntax.Regexp) []*syntax.Regexp {
	if len(rs) > maxBranches {
		t.fail("|", "too many alternatives around ^ or $ (more than %d)", maxBranches)
		return nil
	}
	return rs
}

// hasAnchor reports whether ^ or $ occurs in re.
func hasAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	for _, s := range re.Sub {
		if hasAnchor(s) {
			return true
		}
	}
	return false
}

type reTranslator struct {
	pattern string
	err     *RegexError
}

func (t *reTranslator) fail(syntaxText, format string, args ...any) {
	if t.err != nil {
		return
	}
	off := 0
	if i := strings.Index(t.pattern, syntaxText); i >= 0 && syntaxText != "" {
		off = i
	}
	t.err = &RegexError{off, fmt.Sprintf(format, args...)}
}

// branch translates a top-level alternative: leading ^ and trailing $
// anchor it; otherwise it is surrounded by .* (search semantics).
func (t *reTranslator) branch(re *syntax.Regexp) *Regex {
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	begin, end := false, false
	for len(parts) > 0 && parts[0].Op == syntax.OpBeginText {
		begin, parts = true, parts[1:]
	}
	for len(parts) > 0 && parts[len(parts)-1].Op == syntax.OpEndText {
		end, parts = true, parts[:len(parts)-1]
	}
	var seq []*Regex
	if !begin {
		seq = append(seq, &Regex{Op: ReAll})
	}
	for _, p := range parts {
		seq = append(seq, t.tr(p))
	}
	if !end {
		seq = append(seq, &Regex{Op: ReAll})
	}
	return reConcat(seq...)
}

func (t *reTranslator) tr(re *syntax.Regexp) *Regex {
	switch re.Op {
	case syntax.OpNoMatch:
		return &Regex{Op: ReNone}
	case syntax.OpEmptyMatch:
		return &Regex{Op: ReEpsilon}
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			t.fail("(?", "case-insensitive matching is not supported")
		}
		return &Regex{Op: ReLit, Lit: string(re.Rune)}
	case syntax.OpCharClass:
		return t.class(re)
	case syntax.OpAnyCharNotNL:
		return &Regex{Op: ReClass, Ranges: []ByteRange{{0, '\n' - 1}, {'\n' + 1, 255}}}
	case syntax.OpAnyChar:
		return &Regex{Op: ReClass, Ranges: []ByteRange{{0, 255}}}
	case syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine:
		text := map[syntax.Op]string{syntax.OpBeginText: "^", syntax.OpEndText: "$"}[re.Op]
		if strings.Contains(t.pattern, `\A`) || strings.Contains(t.pattern, `\z`) {
			t.fail(`\`, `\A and \z are not supported: use ^ and $`)
		}
		t.fail(text, "^ and $ are supported only at the start and the end of the pattern (or of a top-level alternative)")
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		t.fail(`\b`, `word boundaries \b and \B are not supported`)
		if t.err.Offset == 0 {
			t.err.Offset = max(0, strings.Index(t.pattern, `\B`))
		}
	case syntax.OpCapture:
		return t.tr(re.Sub[0])
	case syntax.OpStar:
		return &Regex{Op: ReStar, Subs: []*Regex{t.tr(re.Sub[0])}}
	case syntax.OpPlus:
		return &Regex{Op: ReLoop, Min: 1, Max: -1, Subs: []*Regex{t.tr(re.Sub[0])}}
	case syntax.OpQuest:
		return &Regex{Op: ReLoop, Min: 0, Max: 1, Subs: []*Regex{t.tr(re.Sub[0])}}
	case syntax.OpRepeat:
		if re.Min > maxRepeat || re.Max > maxRepeat {
			t.fail("{", "repetition count above %d", maxRepeat)
		}
		return &Regex{Op: ReLoop, Min: re.Min, Max: re.Max, Subs: []*Regex{t.tr(re.Sub[0])}}
	case syntax.OpConcat:
		subs := make([]*Regex, len(re.Sub))
		for i, s := range re.Sub {
			subs[i] = t.tr(s)
		}
		return reConcat(subs...)
	case syntax.OpAlternate:
		subs := make([]*Regex, len(re.Sub))
		for i, s := range re.Sub {
			subs[i] = t.tr(s)
		}
		return reUnion(subs...)
	default:
		t.fail("", "unsupported regular expression syntax %s", re)
	}
	return &Regex{Op: ReNone}
}

// class translates a character class to byte ranges: ASCII ranges as
// they are, a range up to the last Unicode character (from a negated
// class) clipped to the bytes; any other non-ASCII range is refused.
func (t *reTranslator) class(re *syntax.Regexp) *Regex {
	var rs []ByteRange
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], re.Rune[i+1]
		switch {
		case hi <= utf8.RuneSelf-1:
		case hi == utf8.MaxRune && lo <= 255:
			hi = 255
		case hi == utf8.MaxRune:
			continue
		default:
			t.fail("[", "character classes may name ASCII characters only")
			return &Regex{Op: ReNone}
		}
		rs = append(rs, ByteRange{byte(lo), byte(hi)})
	}
	if len(rs) == 0 {
		return &Regex{Op: ReNone}
	}
	return &Regex{Op: ReClass, Ranges: rs}
}

func reConcat(subs ...*Regex) *Regex {
	switch len(subs) {
	case 0:
		return &Regex{Op: ReEpsilon}
	case 1:
		return subs[0]
	}
	return &Regex{Op: ReConcat, Subs: subs}
}

func reUnion(subs ...*Regex) *Regex {
	switch len(subs) {
	case 0:
		return &Regex{Op: ReNone}
	case 1:
		return subs[0]
	}
	return &Regex{Op: ReUnion, Subs: subs}
}

// MatchString reports whether s, as bytes, is in the language of r
// (by simulating its Thompson automaton: time linear in len(s)).
func (r *Regex) MatchString(s string) bool {
	r.once.Do(func() { r.prog, _ = compileNFA(r) })
	if r.prog == nil {
		return false
	}
	return r.prog.match(s)
}

// maxStates bounds the automaton of a pattern (counted repetitions
// copy their operand).
const maxStates = 50000

// nstate is a state of a Thompson automaton: it reads one byte in
// ranges and goes to next[0], or (ranges == nil) moves silently to any
// of next; no next at all is the accepting state.
type nstate struct {
	ranges []ByteRange
	next   []int
}

type nfa struct {
	states []nstate
	start  int
}

var errTooLarge = fmt.Errorf("pattern too large once its repetitions are expanded (more than %d states)", maxStates)

func compileNFA(r *Regex) (*nfa, error) {
	a := &nfa{states: []nstate{{}}} // state 0 accepts
	start, err := a.build(r, 0)
	if err != nil {
		return nil, err
	}
	a.start = start
	return a, nil
}

func (a *nfa) add(st nstate) (int, error) {
	if len(a.states) >= maxStates {
		return 0, errTooLarge
	}
	a.states = append(a.states, st)
	return len(a.states) - 1, nil
}

// build returns the start of an automaton for r that continues to next.
func (a *nfa) build(r *Regex, next int) (int, error) {
	switch r.Op {
	case ReNone:
		return a.add(nstate{ranges: []ByteRange{}}) // reads nothing, goes nowhere
	case ReEpsilon:
		return next, nil
	case ReLit:
		var err error
		for i := len(r.Lit) - 1; i >= 0 && err == nil; i-- {
			next, err = a.add(nstate{ranges: []ByteRange{{r.Lit[i], r.Lit[i]}}, next: []int{next}})
		}
		return next, err
	case ReClass:
		return a.add(nstate{ranges: r.Ranges, next: []int{next}})
	case ReAll:
		return a.star(&Regex{Op: ReClass, Ranges: []ByteRange{{0, 255}}}, next)
	case ReConcat:
		var err error
		for i := len(r.Subs) - 1; i >= 0 && err == nil; i-- {
			next, err = a.build(r.Subs[i], next)
		}
		return next, err
	case ReUnion:
		outs := make([]int, len(r.Subs))
		for i, sub := range r.Subs {
			o, err := a.build(sub, next)
			if err != nil {
				return 0, err
			}
			outs[i] = o
		}
		return a.add(nstate{next: outs})
	case ReStar:
		return a.star(r.Subs[0], next)
	case ReLoop:
		return a.loop(r, next)
	}
	return 0, fmt.Errorf("unknown regular expression operator %d", int(r.Op))
}

func (a *nfa) star(sub *Regex, next int) (int, error) {
	l, err := a.add(nstate{})
	if err != nil {
		return 0, err
	}
	body, err := a.build(sub, l)
	if err != nil {
		return 0, err
	}
	a.states[l].next = []int{body, next}
	return l, nil
}

// loop builds sub{min,max}: min copies, then max-min optional ones
// (or a star when max < 0).
func (a *nfa) loop(r *Regex, next int) (int, error) {
	sub := r.Subs[0]
	var err error
	if r.Max < 0 {
		next, err = a.star(sub, next)
	} else {
		end := next
		for i := r.Min; i < r.Max && err == nil; i++ {
			var body int
			if body, err = a.build(sub, next); err == nil {
				next, err = a.add(nstate{next: []int{body, end}})
			}
		}
	}
	for i := 0; i < r.Min && err == nil; i++ {
		next, err = a.build(sub, next)
	}
	return next, err
}

func (a *nfa) match(s string) bool {
	cur := a.closure([]int{a.start})
	for i := 0; i < len(s) && len(cur) > 0; i++ {
		var step []int
		for _, q := range cur {
			st := a.states[q]
			if st.ranges != nil && inRanges(st.ranges, s[i]) {
				step = append(step, st.next[0])
			}
		}
		cur = a.closure(step)
	}
	for _, q := range cur {
		if q == 0 {
			return true
		}
	}
	return false
}

// closure returns the states reachable from qs by silent moves that
// read or accept (the states that matter for the next byte).
func (a *nfa) closure(qs []int) []int {
	seen := make(map[int]bool, len(qs))
	var out []int
	for len(qs) > 0 {
		q := qs[len(qs)-1]
		qs = qs[:len(qs)-1]
		if seen[q] {
			continue
		}
		seen[q] = true
		st := a.states[q]
		if st.ranges != nil || len(st.next) == 0 {
			out = append(out, q)
			continue
		}
		qs = append(qs, st.next...)
	}
	return out
}

func inRanges(rs []ByteRange, b byte) bool {
	for _, rg := range rs {
		if rg.Lo <= b && b <= rg.Hi {
			return true
		}
	}
	return false
}

// Members of a regular expression, for choosing strings: the lengths a
// Regex's members can have (up to a bound) and random members of a
// given length, by a walk of its tree. Test values come from here: the
// members of a guard's patterns, the shortest one, ones at the boundary
// lengths of the guard's length tests.

// MaxMemberLen bounds the members Lengths and Member consider.
const MaxMemberLen = 64

// Rand is the source of random choices of Member (a *rand.Rand).
type Rand interface{ IntN(n int) int }

// lengthSet is a set of lengths 0..MaxMemberLen.
type lengthSet [MaxMemberLen + 1]bool

// A Members answers for the members of one Regex, memoising the length
// sets of its nodes.
type Members struct {
	re   *Regex
	lens map[*Regex]*lengthSet
}

// NewMembers returns the members of r.
func NewMembers(r *Regex) *Members { return &Members{re: r, lens: map[*Regex]*lengthSet{}} }

// Lengths returns the lengths, at most MaxMemberLen, of r's members, in
// increasing order.
func (m *Members) Lengths() []int {
	var out []int
	for n, ok := range m.lengths(m.re) {
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// Member returns a random member of r of n bytes; false when r has
// none. Classes prefer letters and digits, then printable bytes.
func (m *Members) Member(rng Rand, n int) (string, bool) {
	if n < 0 || n > MaxMemberLen || !m.lengths(m.re)[n] {
		return "", false
	}
	var b strings.Builder
	m.gen(rng, m.re, n, &b)
	return b.String(), true
}

func (m *Members) lengths(r *Regex) *lengthSet {
	if s, ok := m.lens[r]; ok {
		return s
	}
	s := new(lengthSet)
	m.lens[r] = s // a node never contains itself
	switch r.Op {
	case ReEpsilon:
		s[0] = true
	case ReLit:
		if len(r.Lit) <= MaxMemberLen {
			s[len(r.Lit)] = true
		}
	case ReClass:
		s[1] = len(r.Ranges) > 0
	case ReAll:
		for i := range s {
			s[i] = true
		}
	case ReConcat:
		s[0] = true
		for _, sub := range r.Subs {
			*s = sumLengths(s, m.lengths(sub))
		}
	case ReUnion:
		for _, sub := range r.Subs {
			for i, ok := range m.lengths(sub) {
				s[i] = s[i] || ok
			}
		}
	case ReStar:
		*s = starLengths(m.lengths(r.Subs[0]))
	case ReLoop:
		*s = m.loopLengths(r)
	}
	return s
}

func sumLengths(a, b *lengthSet) lengthSet {
	var s lengthSet
	for i, x := range a {
		for j := 0; x && i+j <= MaxMemberLen; j++ {
			s[i+j] = s[i+j] || b[j]
		}
	}
	return s
}

func starLengths(a *lengthSet) lengthSet {
	var s lengthSet
	s[0] = true
	for i := 1; i <= MaxMemberLen; i++ {
		for j := 1; j <= i && !s[i]; j++ {
			s[i] = a[j] && s[i-j]
		}
	}
	return s
}

// loopLengths: Min copies, then up to Max-Min optional ones (a star
// when Max < 0); copies beyond MaxMemberLen of non-empty members add
// nothing within the bound.
func (m *Members) loopLengths(r *Regex) lengthSet {
	sub := m.lengths(r.Subs[0])
	var s lengthSet
	s[0] = true
	for i := 0; i < min(r.Min, MaxMemberLen+1); i++ {
		s = sumLengths(&s, sub)
	}
	if r.Max < 0 {
		st := starLengths(sub)
		return sumLengths(&s, &st)
	}
	acc := s
	for i := r.Min; i < min(r.Max, r.Min+MaxMemberLen+1); i++ {
		s = sumLengths(&s, sub)
		for k, ok := range s {
			acc[k] = acc[k] || ok
		}
	}
	return acc
}

// gen writes a member of r of n bytes (n is one of r's lengths).
func (m *Members) gen(rng Rand, r *Regex, n int, b *strings.Builder) {
	switch r.Op {
	case ReLit:
		b.WriteString(r.Lit)
	case ReClass:
		b.WriteByte(classByte(rng, r.Ranges))
	case ReAll:
		for range n {
			b.WriteByte(classByte(rng, []ByteRange{{'a', 'z'}}))
		}
	case ReConcat:
		m.genSeq(rng, r.Subs, n, b)
	case ReUnion:
		var ok []*Regex
		for _, sub := range r.Subs {
			if m.lengths(sub)[n] {
				ok = append(ok, sub)
			}
		}
		m.gen(rng, ok[rng.IntN(len(ok))], n, b)
	case ReStar:
		m.genRepeat(rng, r.Subs[0], 0, -1, n, b)
	case ReLoop:
		m.genRepeat(rng, r.Subs[0], r.Min, r.Max, n, b)
	}
}

// genSeq writes members of subs in sequence, n bytes in all.
func (m *Members) genSeq(rng Rand, subs []*Regex, n int, b *strings.Builder) {
	sets := make([]*lengthSet, len(subs))
	for i, sub := range subs {
		sets[i] = m.lengths(sub)
	}
	m.genParts(rng, subs, sets, n, b)
}

// genParts writes a member of subs[i] of a length in sets[i] for each
// i, n bytes in all: each takes a random length that leaves a length
// the rest can have.
func (m *Members) genParts(rng Rand, subs []*Regex, sets []*lengthSet, n int, b *strings.Builder) {
	rest := make([]lengthSet, len(subs)+1) // rest[i]: lengths of subs[i:]
	rest[len(subs)][0] = true
	for i := len(subs) - 1; i >= 0; i-- {
		rest[i] = sumLengths(sets[i], &rest[i+1])
	}
	for i, sub := range subs {
		var opts []int
		for l, ok := range sets[i] {
			if ok && l <= n && rest[i+1][n-l] {
				opts = append(opts, l)
			}
		}
		l := opts[rng.IntN(len(opts))]
		m.gen(rng, sub, l, b)
		n -= l
	}
}

// genRepeat writes k copies of members of sub, n bytes in all, for a
// random k in lo..hi (hi < 0: unbounded) that allows n; the copies past
// lo are not empty (an empty one changes nothing).
func (m *Members) genRepeat(rng Rand, sub *Regex, lo, hi, n int, b *strings.Builder) {
	one := m.lengths(sub)
	if one[0] && lo > n { // copies past n are empty: write none of them
		if hi >= 0 {
			hi -= lo - n
		}
		lo = n
	}
	nonEmpty := *one
	nonEmpty[0] = false
	acc := lengthSet{0: true}
	for range min(lo, MaxMemberLen+1) {
		acc = sumLengths(&acc, one)
	}
	var ks []int
	for k := lo; (hi < 0 || k <= hi) && k <= lo+n; k++ {
		if acc[n] {
			ks = append(ks, k)
		}
		acc = sumLengths(&acc, &nonEmpty)
	}
	k := ks[rng.IntN(len(ks))]
	subs := make([]*Regex, k)
	sets := make([]*lengthSet, k)
	for i := range subs {
		subs[i], sets[i] = sub, one
		if i >= lo {
			sets[i] = &nonEmpty
		}
	}
	m.genParts(rng, subs, sets, n, b)
}

// classByte returns a random byte of rs: a letter or a digit when rs
// has some, else a printable one, else any.
func classByte(rng Rand, rs []ByteRange) byte {
	for _, want := range []func(byte) bool{
		func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' },
		func(c byte) bool { return c >= ' ' && c < 0x7f },
		func(byte) bool { return true },
	} {
		var in []byte
		for _, r := range rs {
			for c := int(r.Lo); c <= int(r.Hi); c++ {
				if want(byte(c)) {
					in = append(in, byte(c))
				}
			}
		}
		if len(in) > 0 {
			return in[rng.IntN(len(in))]
		}
	}
	return 0
}
