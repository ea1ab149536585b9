// Package view renders what stg reads and writes (specs, purposes, test
// cases, systems, symbolic trees, abstractions) as one self-contained
// HTML page: the graph laid out by Graphviz as inline SVG, short edge
// labels, the full text of each transition in a side panel, pan and
// zoom, search, and optionally a campaign's coverage and a run's trace.
package view

// Graph is what a page shows: nodes and edges with their details.
type Graph struct {
	Title string
	Kind  string // spec, purpose, testcase, system, tree, sympurpose, abstraction
	// TopDown lays the graph out from top to bottom (trees); otherwise
	// large graphs go left to right.
	TopDown bool
	Nodes   []*Node
	Edges   []*Edge
	Info    []Field // about the whole model: variables, initial condition
	// Coverage is the campaign's summary line when a report was read.
	Coverage string
	Steps    []Step // a run's trace replayed on the graph, or nil
	// TraceNote says how the trace ended (the failing observation).
	TraceNote string
}

// Node is a location (or a tree node, an abstract state).
type Node struct {
	ID      string // "n0", "n1", ... unique in the graph
	Name    string // the location's name, searched
	Label   string // the text drawn in the node (lines joined by \n)
	Class   string // pass, fail, inconc, accept, cut, bottom, or ""
	Initial bool
	Details []Field
}

// Edge is a transition.
type Edge struct {
	ID       string // "t0", "t1", ... the transition's index in the model
	From, To string // node IDs
	Action   string // searched
	Label    string // the short text drawn on the edge
	Summary  string // one line for the list of transitions
	Style    string // solid, dashed or dotted
	Fail     bool   // into Fail: folded by default
	Keep     bool   // drawn even folded (a trace took it)
	Details  []Field
	Cov      *EdgeCov
}

// Field is one line of a side panel: a name and its text.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// EdgeCov is what a campaign's coverage says of a transition.
type EdgeCov struct {
	Taken, Runs int
	// Class is taken, never or unreachable.
	Class string
	// Why explains a transition never taken: unreachable (proved),
	// reachable with a witness path, or unknown.
	Why string
}

// Step is one step of a run's trace, replayed on the graph.
type Step struct {
	Event string `json:"event"` // "!submit(n=3)", "?result(r=7, count=1)", "?delta"
	Edge  string `json:"edge"`  // the edge taken, "" when none matched
	Node  string `json:"node"`  // the location after the step
	Vars  string `json:"vars"`  // the variables after the step
	Note  string `json:"note"`  // a verdict, or why no edge matched
	Bad   bool   `json:"bad"`   // the failing observation
}

// hasFail reports whether some edge is folded by default.
func (g *Graph) hasFail() bool {
	for _, e := range g.Edges {
		if e.Fail {
			return true
		}
	}
	return false
}
