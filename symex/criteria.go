package symex

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stg-tool/stg/spec"
)

// Label is what a symbolic test purpose says of a node of the symbolic
// execution tree (Def. 13). It is the one labelling of the tree: the
// purposes of the criteria (Purpose), of a sympurpose file
// (online.Purpose) and of a projection (project.Purpose) all label with
// it.
type Label int

const (
	Bottom Label = iota // ⊥: no accept node is reachable from the node
	Skip                // an accept node is reachable from the node
	Accept              // the targeted behaviour: an accept node
)

// String returns the label's word in the tree files (JSON and text):
// "bottom", "skip" or "accept".
func (l Label) String() string { return [...]string{"bottom", "skip", "accept"}[l] }

// Symbol returns the label as the papers write it, for explanations:
// "⊥", "skip" or "accept".
func (l Label) Symbol() string { return [...]string{"⊥", "skip", "accept"}[l] }

// A Purpose is a symbolic test purpose (Def. 13) given by its accept
// nodes: skip are their strict ancestors, ⊥ every other node, including
// the whole infinite rest of the tree. It is the labelling every route
// of symbolic purposes uses: online.Purpose and project.Purpose hold one
// and add what their route knows of the accept nodes (their external
// constraints, the projection they come from). Nodes is the finite part
// of the tree the purpose was built on, breadth-first, for printing; nil
// when the tree is expanded on demand. predabs.Purpose is another
// object: an automaton over action names (the STG route), not a
// labelling of a symbolic tree.
type Purpose struct {
	Criterion string // how it was built: "length 2", "k-inclusion 1 (length 2)"
	// Length is n when the purpose was built as TG_n, and K is k when
	// that n came from the k-inclusion criterion (0 otherwise).
	Length, K int
	Nodes     []*Node
	Accept    []*Node
	labels    map[*Node]Label
	below     map[*Node][]*Node // the accept nodes strictly below a node
}

// PurposeStats counts the nodes of a purpose's tree by label.
type PurposeStats struct {
	Nodes  int `json:"nodes"`
	Accept int `json:"accept"`
	Skip   int `json:"skip"`
	Bottom int `json:"bottom"`
}

// NewPurpose labels the tree given its accept nodes; nodes is the part
// of the tree to print (Purpose.Nodes). An accept node stays accept
// even below another one.
func NewPurpose(criterion string, nodes, accept []*Node) *Purpose {
	p := &Purpose{Criterion: criterion, Nodes: nodes, Accept: accept, labels: map[*Node]Label{}, below: map[*Node][]*Node{}}
	for _, a := range accept {
		p.labels[a] = Accept
	}
	for _, a := range accept {
		for n := a.Parent; n != nil; n = n.Parent {
			if p.labels[n] != Accept {
				p.labels[n] = Skip
			}
			p.below[n] = append(p.below[n], a)
		}
	}
	return p
}

// Label returns TP(n).
func (p *Purpose) Label(n *Node) Label { return p.labels[n] }

// Targets returns the accept nodes reachable from n: n itself when it is
// an accept node, the accept nodes below it when it is a skip node, none
// for ⊥.
func (p *Purpose) Targets(n *Node) []*Node {
	if p.labels[n] == Accept {
		return []*Node{n}
	}
	return p.below[n]
}

// Stats counts p's nodes by label.
func (p *Purpose) Stats() PurposeStats {
	s := PurposeStats{Nodes: len(p.Nodes)}
	for _, n := range p.Nodes {
		switch p.labels[n] {
		case Accept:
			s.Accept++
		case Skip:
			s.Skip++
		default:
			s.Bottom++
		}
	}
	return s
}

// AcceptPaths returns the paths of the accept nodes.
func (p *Purpose) AcceptPaths() [][]string {
	var ps [][]string
	for _, a := range p.Accept {
		ps = append(ps, a.Path())
	}
	return ps
}

// Split returns one purpose per accept node (the decomposition of §5 of
// the AGATHA paper), on the same tree.
func (p *Purpose) Split() []*Purpose {
	var out []*Purpose
	for _, a := range p.Accept {
		q := NewPurpose(p.Criterion+", accept "+a.PathString(), p.Nodes, []*Node{a})
		q.Length, q.K = p.Length, p.K
		out = append(out, q)
	}
	return out
}

// lengthHint says which shorter lengths have paths ending with an output,
// for the error of a length that has none.
func lengthHint(nodes []*Node, n int) string {
	var lens []int
	for _, node := range nodes {
		if node.Depth < n && isOutput(node) && !slices.Contains(lens, node.Depth) {
			lens = append(lens, node.Depth)
		}
	}
	if len(lens) == 0 {
		return "internal steps count in a path's length: try a longer one"
	}
	slices.Sort(lens)
	words := make([]string, len(lens))
	for i, l := range lens {
		words[i] = strconv.Itoa(l)
	}
	return fmt.Sprintf("internal steps count in a path's length; paths of length %s end with an output (quiescence included)", strings.Join(words, ", "))
}

// Length builds the purpose of the criterion "all paths of length n"
// (TG_n, Def. 18): for each path p of length exactly n, its target is
// accept if p ends with an output (quiescence included); otherwise the
// targets of its one-output extensions Extout(p) are. Paths that end
// earlier (after quiescence, a sink) are not accepted, as Def. 18 reads.
func (e *Executor) Length(n int) (*Purpose, error) {
	if n < 1 {
		return nil, fmt.Errorf("the length of the paths must be at least 1, not %d", n)
	}
	x := e.fork(Options{Depth: n})
	t, err := x.Execute(nil)
	if err != nil {
		return nil, err
	}
	if t.Stats.BoundReached {
		return nil, fmt.Errorf("the tree of depth %d has more than %d nodes (raise --max-nodes)", n, x.opts.MaxNodes)
	}
	nodes := slices.Clone(t.Nodes)
	var accept []*Node
	for _, node := range t.Nodes {
		if node.Depth != n {
			continue
		}
		if isOutput(node) {
			accept = append(accept, node)
			continue
		}
		children, err := x.Expand(node)
		if err != nil {
			return nil, err
		}
		for _, c := range children {
			if isOutput(c) {
				nodes = append(nodes, c)
				accept = append(accept, c)
			}
		}
	}
	if len(accept) == 0 {
		return nil, fmt.Errorf("no path of length %d ends with an output or is followed by one: the purpose would have no accept node (%s)", n, lengthHint(t.Nodes, n))
	}
	e.share(x)
	p := NewPurpose(fmt.Sprintf("length %d", n), nodes, accept)
	p.Length = n
	return p, nil
}

// KInclusion builds the purpose of the criterion "k-inclusion" (Def. 19):
// TG_n with n = k times the longest path of the tree restricted by
// inclusion. It fails when that tree is not finite within MaxNodes.
func (e *Executor) KInclusion(k int) (*Purpose, error) {
	if k < 1 {
		return nil, fmt.Errorf("k must be at least 1, not %d", k)
	}
	// With summaries the tree restricted by inclusion is built with the
	// calls uninterpreted: inclusion compares path conditions, and the
	// uninterpreted tree has every path of the summarised one.
	x := e.fork(Options{Inclusion: true})
	x.flat, x.tab, x.opts.Functions = nil, nil, Uninterpreted
	t, err := x.Execute(nil)
	if err != nil {
		return nil, err
	}
	if t.Stats.BoundReached {
		return nil, fmt.Errorf("the tree restricted by inclusion is not finite within %d nodes (raise --max-nodes, or use --length)", x.opts.MaxNodes)
	}
	p, err := e.Length(k * t.Stats.LongestPath)
	if err != nil {
		return nil, err
	}
	p.Criterion = fmt.Sprintf("k-inclusion %d (length %d)", k, p.Length)
	p.K = k
	return p, nil
}

// fork returns an executor of the same spec with other bounds (opts's
// Depth and Inclusion; e's MaxNodes, quiescence, order and treatment of
// the functions), whose tree is built afresh. With summaries it shares
// e's flattening and global table, which grows. Call share afterwards if
// e is to expand the fork's nodes.
func (e *Executor) fork(opts Options) *Executor {
	opts.MaxNodes, opts.DeltaLoop, opts.NoDelta, opts.Order = e.opts.MaxNodes, e.opts.DeltaLoop, e.opts.NoDelta, e.opts.Order
	opts.Functions, opts.Tables, opts.Summary = e.opts.Functions, e.opts.Tables, e.opts.Summary
	return &Executor{z: e.z, m: e.m, names: e.names, quiet: e.quiet, delta: e.delta, fresh: map[string]int{}, opts: opts,
		flat: e.flat, tab: e.tab}
}

// share keeps the fresh-symbol counters of x, whose nodes e may expand.
func (e *Executor) share(x *Executor) {
	for k, v := range x.fresh {
		e.fresh[k] = max(e.fresh[k], v)
	}
	e.nextID = max(e.nextID, x.nextID)
	e.stats.Queries += x.stats.Queries
	e.solve.Calls += x.solve.Calls
	e.solve.Attempts += x.solve.Attempts
	e.solve.Execs += x.solve.Execs
	e.solve.Added += x.solve.Added
}

// NeedsDeltaLoop reports whether one of the paths goes on after
// quiescence: its tree must then be built with Options.DeltaLoop (a
// sympurpose file does not say how its tree was built; its paths do).
func NeedsDeltaLoop(paths [][]string) bool {
	for _, p := range paths {
		if i := slices.Index(p, DeltaName); i >= 0 && i < len(p)-1 {
			return true
		}
	}
	return false
}

// isOutput reports whether the transition into n is an output of the
// spec or quiescence.
func isOutput(n *Node) bool {
	return n.Action != nil && n.Action.Dir == spec.Output
}

// FindPath returns the node at the end of path from root, expanding the
// tree on demand; it fails naming the first step that does not exist.
func (e *Executor) FindPath(root *Node, path []string) (*Node, error) {
	n, i, err := e.follow(root, path)
	if err == nil && n == nil {
		err = fmt.Errorf("[%s]: no satisfiable transition %s after [%s]", strings.Join(path, ", "), path[i], strings.Join(path[:i], ", "))
	}
	return n, err
}

// Follow returns the node at the end of path from root, expanding the
// tree on demand; nil when a step names no satisfiable transition (the
// path condition of path is unsatisfiable, or a name is not the spec's).
func (e *Executor) Follow(root *Node, path []string) (*Node, error) {
	n, _, err := e.follow(root, path)
	return n, err
}

// follow is Follow that also returns, when n is nil, the index of the
// step that names no child.
func (e *Executor) follow(root *Node, path []string) (n *Node, step int, err error) {
	n = root
	for i, name := range path {
		children, err := e.Expand(n)
		if err != nil {
			return nil, i, err
		}
		var next *Node
		for _, c := range children {
			if c.Name == name {
				next = c
				break
			}
		}
		if next == nil {
			return nil, i, nil
		}
		n = next
	}
	return n, len(path), nil
}

// PurposeOf returns the purpose whose accept nodes are at the given
// paths, on the part of the tree that shows it: the nodes on the paths
// and the other children of their skip nodes (⊥ there).
func (e *Executor) PurposeOf(criterion string, paths [][]string) (*Purpose, error) {
	root, err := e.Root()
	if err != nil {
		return nil, err
	}
	var accept []*Node
	for _, p := range paths {
		n, err := e.FindPath(root, p)
		if err != nil {
			return nil, err
		}
		accept = append(accept, n)
	}
	nodes := []*Node{root}
	seen := map[*Node]bool{root: true}
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if !n.Expanded {
			continue
		}
		for _, c := range n.Children {
			if !seen[c] {
				seen[c] = true
				nodes = append(nodes, c)
			}
		}
	}
	return NewPurpose(criterion, nodes, accept), nil
}
