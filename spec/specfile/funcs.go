package specfile

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/big"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// funcKeys are the keys of a function declaration.
var funcKeys = []string{"params", "result", "def", "table", "impl", "dir"}

// funcDecl is a function being read: its declaration and the nodes of
// its body and table, read once every signature is known.
type funcDecl struct {
	f     *expr.Func
	key   *yaml.Node
	def   *yaml.Node
	table *yaml.Node
	dir   *yaml.Node
	named bool // params: written as a mapping of names to types
}

// functions reads the functions: section in three passes: the
// signatures, then the bodies of the defined functions (in an order in
// which every function is defined after the functions it calls; a
// cycle of calls is an error), then the tables.
func (l *loader) functions(m *spec.Model, n *yaml.Node) {
	var decls []*funcDecl
	for _, kv := range l.mapping(n, "functions", nil) {
		if d := l.funcDecl(m, kv[0], kv[1]); d != nil {
			decls = append(decls, d)
			m.Funcs = append(m.Funcs, d.f)
		}
	}
	l.defineAll(m, decls)
	for _, d := range decls {
		if d.table != nil {
			for _, rn := range l.sequence(d.table, "table of "+d.f.Name) {
				l.addRow(d.f, rn)
			}
		}
	}
}

// funcDecl reads one function's signature, implementation and the
// nodes of its body and table.
func (l *loader) funcDecl(m *spec.Model, key, n *yaml.Node) *funcDecl {
	name, ok := l.ident(key, "function")
	if !ok {
		return nil
	}
	d := &funcDecl{f: &expr.Func{Name: name, Pos: l.pos(key)}, key: key}
	f := d.f
	for _, p := range l.mapping(n, "function "+name, funcKeys) {
		switch p[0].Value {
		case "params":
			d.named = p[1].Kind == yaml.MappingNode
			l.funcParams(m, f, p[1])
		case "result":
			if t, ok := l.typeName(m, p[1]); ok {
				f.Result = t
			}
		case "def":
			d.def = p[1]
		case "table":
			d.table = p[1]
		case "impl":
			if s, ok := l.scalar(p[1], "impl of "+name); ok {
				if strings.TrimSpace(s) == "" {
					l.errorf(p[1], "impl of %s is empty: write the command that computes it", name)
				}
				f.Impl, f.ImplPos = s, l.pos(p[1])
			}
		case "dir":
			if s, ok := l.scalar(p[1], "dir of "+name); ok {
				if strings.TrimSpace(s) == "" {
					l.errorf(p[1], "dir of %s is empty: write the directory its impl runs in, or leave dir out", name)
				}
				f.ImplDir = s
				d.dir = p[1]
			}
		}
	}
	if d.dir != nil && f.Impl == "" {
		l.errorf(d.dir, "dir of %s without impl: dir is the directory the impl command runs in", name)
	}
	if f.Result.Kind == expr.Invalid {
		l.errorf(key, "function %s needs a result type", name)
		return nil
	}
	if d.def != nil {
		switch {
		case !d.named && len(f.Params) > 0:
			l.errorf(d.def, "defined function %s must name its parameters: params: {a: int, b: int}", name)
			d.def = nil
		case d.table != nil || f.Impl != "":
			l.errorf(d.def, "defined function %s is its own implementation: it takes no table or impl", name)
			d.def = nil
		}
	}
	return d
}

// funcParams reads params: as a list of types or a mapping of names to
// types; an array type [N]T gives N flattened parameters.
func (l *loader) funcParams(m *spec.Model, f *expr.Func, n *yaml.Node) {
	add := func(name string, tn *yaml.Node) {
		t, size, ok := l.declType(m, tn)
		if !ok {
			return
		}
		f.ParamLens = append(f.ParamLens, size)
		if size == 0 {
			f.Params = append(f.Params, t)
			f.ParamNames = append(f.ParamNames, name)
			return
		}
		for i := 0; i < size; i++ {
			f.Params = append(f.Params, t)
			f.ParamNames = append(f.ParamNames, expr.CellName(name, i))
		}
	}
	if n.Kind != yaml.MappingNode {
		for _, tn := range l.sequence(n, "params of "+f.Name) {
			add("", tn)
		}
		f.ParamNames = nil
		return
	}
	ns := names{}
	for _, kv := range l.mapping(n, "params of "+f.Name, nil) {
		pn, ok := l.ident(kv[0], "parameter")
		if ok && l.declare(ns, kv[0], pn, "parameter "+pn) {
			add(pn, kv[1])
		}
	}
}

// defineAll type-checks the bodies of the defined functions, each after
// the functions it calls, and refuses recursion.
func (l *loader) defineAll(m *spec.Model, decls []*funcDecl) {
	byName := map[string]*funcDecl{}
	for _, d := range decls {
		if d.def != nil {
			byName[d.f.Name] = d
		}
	}
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[*funcDecl]int{}
	var stack []*funcDecl
	var visit func(d *funcDecl) bool
	visit = func(d *funcDecl) bool {
		switch state[d] {
		case visiting:
			return false
		case done:
			return d.f.Def != nil
		}
		state[d] = visiting
		stack = append(stack, d)
		ok := true
		for _, c := range l.callsIn(d.def) {
			g := byName[c.name]
			if g == nil {
				continue
			}
			if state[g] == visiting {
				l.errs.Add(c.pos, "recursive definition of %s: %s", g.f.Name, cycle(stack, g, c.name))
				ok = false
				continue
			}
			ok = visit(g) && ok
		}
		stack = stack[:len(stack)-1]
		state[d] = done
		if ok {
			l.define(m, d)
		}
		return ok && d.f.Def != nil
	}
	for _, d := range decls {
		if d.def != nil {
			visit(d)
		}
	}
}

// cycle names the calls from g back to g along the stack: "f -> g -> f".
func cycle(stack []*funcDecl, g *funcDecl, last string) string {
	var names []string
	for i := len(stack) - 1; i >= 0; i-- {
		names = append([]string{stack[i].f.Name}, names...)
		if stack[i] == g {
			break
		}
	}
	return strings.Join(append(names, last), " -> ")
}

type callSite struct {
	name string
	pos  expr.Pos
}

// callsIn lists the calls of named functions in a body's text (its
// syntax only; type errors are reported when it is defined).
func (l *loader) callsIn(n *yaml.Node) []callSite {
	fset := token.NewFileSet()
	x, err := parser.ParseExprFrom(fset, "", n.Value, parser.SkipObjectResolution)
	if err != nil {
		return nil // reported by define
	}
	base := l.exprPos(n)
	var calls []callSite
	ast.Inspect(x, func(a ast.Node) bool {
		if c, ok := a.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok {
				p := fset.Position(c.Pos())
				calls = append(calls, callSite{id.Name, expr.Shift(base, p.Line, p.Column)})
			}
		}
		return true
	})
	return calls
}

// define type-checks the body of d in the scope of its parameters, the
// enum constants and the functions.
func (l *loader) define(m *spec.Model, d *funcDecl) {
	f := d.f
	scope := m.ParamScope(nil)
	scope.Vars = map[string]expr.Type{}
	for i, pn := range f.ParamNames {
		scope.Params[pn] = f.Params[i]
	}
	scope.Arrays = paramArrays(f)
	e, def := l.guarded(d.def, scope, "body of "+f.Name)
	if e == nil {
		return
	}
	if !expr.IsTrue(def) {
		f.DefBounds = def
	}
	if e.Type() != f.Result {
		if r, ok := expr.AsReal(e); ok && f.Result == expr.RealType {
			e = r
		} else {
			l.errorf(d.def, "body of %s has type %s, want %s", f.Name, e.Type(), f.Result)
			return
		}
	}
	f.Def = e
}

// paramArrays describes a function's array parameters for the scope of
// its body.
func paramArrays(f *expr.Func) map[string]*expr.ArrayVar {
	as := map[string]*expr.ArrayVar{}
	i := 0
	for _, n := range f.ParamLens {
		if n > 0 && i < len(f.ParamNames) {
			name := strings.TrimSuffix(f.ParamNames[i], "[0]")
			as[name] = &expr.ArrayVar{Name: name, Len: n, Elem: f.Params[i]}
		}
		i += max(n, 1)
	}
	return as
}

// addRow reads one table row [args..., result] of f, with array
// arguments nested or flattened, and adds it unless it repeats a row.
func (l *loader) addRow(f *expr.Func, rn *yaml.Node) {
	if rn.Kind != yaml.SequenceNode {
		l.errorf(rn, "a row of the table of %s is a list [arguments..., result]", f.Name)
		return
	}
	items := rn.Content
	// [[a, b], r]: the arguments written as one list.
	if len(items) == 2 && items[0].Kind == yaml.SequenceNode && !(len(f.ParamLens) == 1 && f.ParamLens[0] > 0) && len(f.Params) != 1 {
		items = append(append([]*yaml.Node(nil), items[0].Content...), items[1])
	}
	var leaves []*yaml.Node
	k := 0
	for _, size := range f.ParamLens {
		if k < len(items) && items[k].Kind == yaml.SequenceNode && size > 0 {
			if len(items[k].Content) != size {
				l.errorf(items[k], "argument of %s has %d values, want %d", f.Name, len(items[k].Content), size)
				return
			}
			leaves = append(leaves, items[k].Content...)
			k++
			continue
		}
		n := max(size, 1)
		if k+n > len(items) {
			k = len(items) + 1
			break
		}
		leaves = append(leaves, items[k:k+n]...)
		k += n
	}
	if k+1 != len(items) {
		l.errorf(rn, "row of %s has %d values, want %d (the arguments then the result)", f.Name, len(flatLeaves(rn)), len(f.Params)+1)
		return
	}
	row := expr.TableRow{Pos: l.pos(rn)}
	ok := true
	for i, ln := range leaves {
		v, good := l.value(ln, f.Params[i], fmt.Sprintf("argument %d of %s", i+1, f.Name))
		row.Args = append(row.Args, v)
		ok = ok && good
	}
	var good bool
	row.Result, good = l.value(items[k], f.Result, "result of "+f.Name)
	if ok && good {
		l.errs = append(l.errs, f.AddRow(row)...)
	}
}

func flatLeaves(n *yaml.Node) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		return []*yaml.Node{n}
	}
	var ls []*yaml.Node
	for _, c := range n.Content {
		ls = append(ls, flatLeaves(c)...)
	}
	return ls
}

// value reads a constant of type t: an integer, a real (an integer, a
// decimal or a quotient "7/2"), true or false, an enum constant, or a
// string (a YAML string, as it is).
func (l *loader) value(n *yaml.Node, t expr.Type, what string) (expr.Value, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		s := strings.TrimSpace(n.Value)
		switch t.Kind {
		case expr.Int:
			if v, ok := l.bigInt(n); ok {
				return expr.IntValue(v), true
			}
		case expr.Real:
			if n.Tag == "!!int" || n.Tag == "!!float" || n.Tag == "!!str" {
				if v, ok := new(big.Rat).SetString(s); ok && !strings.ContainsAny(s, "xXpP") {
					return expr.RatValue(v), true
				}
			}
		case expr.Bool:
			if n.Tag == "!!bool" && (s == "true" || s == "false") {
				return expr.BoolValue(s == "true"), true
			}
		case expr.EnumKind:
			if i := t.Enum.Index(s); i >= 0 && n.Tag == "!!str" {
				return expr.EnumValue(t.Enum, i), true
			}
		case expr.Str:
			if n.Tag == "!!str" {
				return expr.StringValue(n.Value), true
			}
		}
	}
	l.errorf(n, "%s: %s is not a value of type %s", what, nodeText(n), t)
	return expr.Value{}, false
}

// nodeText prints a YAML node briefly in an error message.
func nodeText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return fmt.Sprintf("%q", n.Value)
	}
	return "a " + map[yaml.Kind]string{yaml.SequenceNode: "list", yaml.MappingNode: "mapping"}[n.Kind]
}
