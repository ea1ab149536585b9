package view

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
)

var (
	//go:embed assets/page.html
	pageHTML string
	//go:embed assets/page.css
	pageCSS string
	//go:embed assets/page.js
	pageJS string
)

// page is what the template of the page reads.
type page struct {
	Title, Kind  string
	CSS          template.CSS
	JS           template.JS
	Data         template.JS
	Folded, Full template.HTML
	HasFail      bool
	FailCount    int
	Info         []Field
	Edges        []*Edge
	Coverage     string
	Steps        []Step
	TraceNote    string
}

// pageData is the JSON the page's script reads: the details of each
// node and edge by id, and the trace's steps.
type pageData struct {
	Nodes map[string]nodeData `json:"nodes"`
	Edges map[string]edgeData `json:"edges"`
	Steps []Step              `json:"steps"`
	// TopDown: a tree, first shown from its root.
	TopDown bool `json:"topDown"`
}

type nodeData struct {
	Name    string  `json:"name"`
	Details []Field `json:"details"`
}

type edgeData struct {
	Label   string  `json:"label"`
	Action  string  `json:"action"`
	Details []Field `json:"details"`
}

// Render writes g as one self-contained HTML page: the drawing laid out
// by layout (inline SVG), the style and the script inline, nothing
// fetched from the network. A graph with edges into Fail is drawn twice,
// without them (shown first) and with them.
func Render(w io.Writer, g *Graph, layout Layout) error {
	p := page{Title: g.Title, Kind: g.Kind, CSS: template.CSS(pageCSS), JS: template.JS(pageJS),
		Info: g.Info, Edges: g.Edges, Coverage: g.Coverage, Steps: g.Steps, TraceNote: g.TraceNote}
	svg, err := draw(g, true, "", layout)
	if err != nil {
		return err
	}
	p.Folded = svg
	if g.hasFail() {
		if p.Full, err = draw(g, false, "all-", layout); err != nil {
			return err
		}
		p.HasFail = true
		for _, e := range g.Edges {
			if e.Fail {
				p.FailCount++
			}
		}
	}
	data, err := json.Marshal(dataOf(g))
	if err != nil {
		return err
	}
	p.Data = template.JS(data) // json.Marshal escapes <, > and &
	t, err := template.New("page").Parse(pageHTML)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, p); err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

// draw lays g out and returns its SVG, ready to inline.
func draw(g *Graph, folded bool, prefix string, layout Layout) (template.HTML, error) {
	out, err := layout(dotText(g, folded, prefix))
	if err != nil {
		return "", err
	}
	svg, err := inlineSVG(out)
	if err != nil {
		return "", fmt.Errorf("laying out %s: %v", g.Title, err)
	}
	return template.HTML(svg), nil
}

func dataOf(g *Graph) pageData {
	d := pageData{Nodes: map[string]nodeData{}, Edges: map[string]edgeData{}, Steps: g.Steps, TopDown: g.TopDown}
	for _, n := range g.Nodes {
		d.Nodes[n.ID] = nodeData{Name: n.Name, Details: n.Details}
	}
	for _, e := range g.Edges {
		ds := e.Details
		if c := e.Cov; c != nil {
			ds = append(ds[:len(ds):len(ds)], covFields(c)...)
		}
		d.Edges[e.ID] = edgeData{Label: e.Label, Action: e.Action, Details: ds}
	}
	return d
}

func covFields(c *EdgeCov) []Field {
	if c.Taken > 0 {
		return []Field{{"coverage", fmt.Sprintf("taken %d times in %d runs", c.Taken, c.Runs)}}
	}
	return []Field{{"coverage", "never taken: " + c.Why}}
}
