package view

import (
	"encoding/json"
	"fmt"
	"gopkg.in/yaml.v3"
	"sort"
	"strings"

	"github.com/stg-tool/stg/symex"
)

// FromTree returns the graph of a symbolic execution tree, as stg symex
// --format json (or yaml) writes its nodes, drawn top down: one box per
// node with its location and id, one edge per symbolic transition
// labelled by its symbolic action ("submit?n@1"); the path, variables
// and path condition are details. A node cut by inclusion is grey with a
// dotted edge to the node that includes it; with a purpose's labels,
// accept nodes are green and ⊥ nodes blue-grey.
func FromTree(title string, nodes []symex.JSONNode) *Graph {
	g := &Graph{Title: title, Kind: "symbolic tree", TopDown: true}
	byPath := map[string]string{}
	for _, n := range nodes {
		byPath[strings.Join(n.Path, "\x00")] = nodeID(n.ID)
	}
	for _, n := range nodes {
		g.Nodes = append(g.Nodes, treeNode(n))
		if n.Parent != nil {
			name := ""
			if len(n.Path) > 0 {
				name = n.Path[len(n.Path)-1]
			}
			e := &Edge{ID: fmt.Sprintf("e%d", n.ID), From: nodeID(*n.Parent), To: nodeID(n.ID), Action: n.Label + " " + name,
				Label: n.Label, Summary: fmt.Sprintf("#%d → #%d: %s %s", *n.Parent, n.ID, name, n.Label), Style: "solid"}
			switch {
			case strings.Contains(n.Label, "!"):
				e.Style = "dashed" // an output, quiescence
			case !strings.Contains(n.Label, "?"):
				e.Style = "dotted" // an internal action
			}
			e.Details = []Field{{"transition", name}, {"symbolic action", n.Label}, {"from", nodeID(*n.Parent)}, {"to", nodeID(n.ID)}, {"path condition after", n.PC}}
			g.Edges = append(g.Edges, e)
		}
		if n.CutBy != nil {
			if to, ok := byPath[strings.Join(n.CutBy, "\x00")]; ok {
				g.Edges = append(g.Edges, &Edge{ID: fmt.Sprintf("cut%d", n.ID), From: nodeID(n.ID), To: to, Label: "⊆", Style: "dotted", Summary: "cut by inclusion",
					Details: []Field{{"cut by inclusion", nodeID(n.ID) + " ⊆ " + to}}})
			}
		}
	}
	return g
}

func nodeID(id int) string { return fmt.Sprintf("n%d", id) }

func treeNode(n symex.JSONNode) *Node {
	label := fmt.Sprintf("%s\n#%d", n.Location, n.ID)
	t := &Node{ID: nodeID(n.ID), Name: n.Location, Label: label, Class: "box"}
	switch {
	case n.Purpose == "accept":
		t.Class = "treeaccept"
	case n.Purpose == "bottom":
		t.Class = "bottom"
	case n.CutBy != nil:
		t.Class = "cut"
	}
	t.Details = []Field{{"node", fmt.Sprintf("#%d", n.ID)}, {"location", n.Location}, {"path", "[" + strings.Join(n.Path, ", ") + "]"}}
	var vs []string
	for k, v := range n.Vars {
		vs = append(vs, k+" = "+v)
	}
	sort.Strings(vs)
	t.Details = append(t.Details, Field{"variables", strings.Join(vs, "\n")}, Field{"path condition", n.PC})
	if n.Purpose != "" {
		t.Details = append(t.Details, Field{"purpose", n.Purpose})
	}
	if n.CutBy != nil {
		t.Details = append(t.Details, Field{"cut by", "[" + strings.Join(n.CutBy, ", ") + "]"})
	}
	if n.Unknown {
		t.Details = append(t.Details, Field{"undecided", "the solver could not decide the path condition"})
	}
	if len(n.Calls) > 0 {
		t.Details = append(t.Details, Field{"calls", strings.Join(n.Calls, "\n")})
	}
	return t
}

// Abstraction is an abstraction as stg abstract --format yaml writes it
// (the fields a page shows).
type Abstraction struct {
	Spec        string              `yaml:"spec"`
	Purpose     string              `yaml:"purpose"`
	States      []AbstractState     `yaml:"states"`
	Transitions []map[string]string `yaml:"transitions"`
}

// AbstractState is a state of an Abstraction.
type AbstractState struct {
	ID        string `yaml:"id"`
	Pred      string `yaml:"pred"`
	Initial   bool   `yaml:"initial"`
	Reachable bool   `yaml:"reachable"`
}

// FromAbstraction returns the graph of an abstraction: one node per
// abstract state (its predicate a detail), one edge per abstract
// transition labelled by its action and id, the spec transition (EGA)
// behind it a detail; unproved transitions dashed.
func FromAbstraction(a *Abstraction) *Graph {
	g := &Graph{Title: "abstraction of " + a.Spec + " guided by " + a.Purpose, Kind: "abstraction"}
	ids := map[string]string{}
	for i, s := range a.States {
		n := &Node{ID: fmt.Sprintf("n%d", i), Name: s.ID, Label: s.ID, Class: "box", Initial: s.Initial,
			Details: []Field{{"state", s.ID}, {"predicate", s.Pred}, {"reachable", fmt.Sprint(s.Reachable)}}}
		ids[s.ID] = n.ID
		g.Nodes = append(g.Nodes, n)
	}
	for i, t := range a.Transitions {
		id := fmt.Sprintf("t%d", i)
		e := &Edge{ID: id, From: ids[t["from"]], To: ids[t["to"]], Action: t["action"], Label: t["action"] + " " + id, Style: "solid",
			Summary: t["from"] + " → " + t["to"] + ": " + t["action"] + " (" + t["ega"] + ")"}
		if e.From == "" || e.To == "" {
			continue
		}
		if t["unproved"] == "true" {
			e.Style = "dashed"
		}
		e.Details = []Field{{"transition", id}, {"from", t["from"]}, {"to", t["to"]}, {"action", t["action"]}, {"spec transition", t["ega"]}}
		for _, k := range []string{"unproved", "filtered"} {
			if t[k] != "" {
				e.Details = append(e.Details, Field{k, t[k]})
			}
		}
		g.Edges = append(g.Edges, e)
	}
	return g
}

// ReadTree reads the nodes of a symbolic execution tree as stg symex
// --format json or --format yaml writes them.
func ReadTree(name string, data []byte) ([]symex.JSONNode, error) {
	var raw any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	js, err := json.Marshal(raw) // YAML's keys are the JSON's
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var tree struct {
		Nodes []symex.JSONNode `json:"nodes"`
	}
	if err := json.Unmarshal(js, &tree); err != nil {
		return nil, fmt.Errorf("%s: not a tree of stg symex --format json or yaml: %v", name, err)
	}
	if len(tree.Nodes) == 0 {
		return nil, fmt.Errorf("%s: the tree has no nodes", name)
	}
	return tree.Nodes, nil
}
