package view

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (go test -update rewrites it); got:\n%s", path, got)
	}
}

func loadTC(t *testing.T) *spec.Model {
	t.Helper()
	m, err := specfile.LoadFile(filepath.Join("testdata", "retry-stale-ack.tc.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fakeLayout stands for Graphviz: one <g> per node and edge line of the
// DOT text, with its id and class, so that the page's assembly is tested
// without Graphviz.
func fakeLayout(src string) (string, error) {
	re := regexp.MustCompile(`(?m)^  "([^"]+)"( -> "[^"]+")? \[id="([^"]+)".*class="([^"]*)"`)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?>` + "\n<svg viewBox=\"0 0 100 100\">\n")
	for _, m := range re.FindAllStringSubmatch(src, -1) {
		kind := "node"
		if m[2] != "" {
			kind = "edge"
		}
		fmt.Fprintf(&b, "<g id=\"%s\" class=\"%s %s\"></g>\n", m[3], kind, m[4])
	}
	b.WriteString("</svg>\n")
	return b.String(), nil
}

// TestDOTGolden checks the DOT text of a test case, folded and full: ids
// t<i>, short labels, Fail edges left out when folded.
func TestDOTGolden(t *testing.T) {
	g := FromModel(loadTC(t))
	golden(t, "retry-stale-ack.folded.dot", DOT(g, true))
	golden(t, "retry-stale-ack.full.dot", DOT(g, false))
}

// TestPageOneElementPerTransition renders a test case and checks the
// page: one list item and one detail entry per transition, one edge of
// the full drawing per transition, nothing fetched from the network.
func TestPageOneElementPerTransition(t *testing.T) {
	m := loadTC(t)
	g := FromModel(m)
	var b bytes.Buffer
	if err := Render(&b, g, fakeLayout); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	items := regexp.MustCompile(`<li class="tr-item"[^\n]*?</li>`).FindAllString(page, -1)
	if len(items) != len(m.Transitions) {
		t.Fatalf("%d transition items, want %d", len(items), len(m.Transitions))
	}
	golden(t, "retry-stale-ack.items.html", strings.Join(items, "\n")+"\n")
	full := page[strings.Index(page, `id="drawing-full"`):]
	for i := range m.Transitions {
		if n := strings.Count(full, fmt.Sprintf(`<g id="all-t%d" class="edge`, i)); n != 1 {
			t.Errorf("the full drawing has %d elements of t%d, want 1", n, i)
		}
	}
	data := pageJSON(t, page)
	if len(data.Edges) != len(m.Transitions) || data.Edges["t4"].Details[4].Value != "data == d && seq == s && attempt == n + 1" {
		t.Errorf("the page's data has %d edges, t4 %v", len(data.Edges), data.Edges["t4"].Details)
	}
	for _, bad := range []string{"<script src", "<link", "http://", "https://", "<?xml"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q: it must be self-contained", bad)
		}
	}
}

func pageJSON(t *testing.T, page string) pageData {
	t.Helper()
	const open = `<script type="application/json" id="stg-data">`
	i := strings.Index(page, open)
	j := strings.Index(page[i:], "</script>")
	var d pageData
	if i < 0 || j < 0 {
		t.Fatal("no data in the page")
	}
	if err := json.Unmarshal([]byte(page[i+len(open):i+j]), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPageWithGraphviz renders with the system's dot: Graphviz keeps the
// ids and classes, one <g class="edge"> per transition drawn.
func TestPageWithGraphviz(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("no Graphviz dot")
	}
	g := FromModel(loadTC(t))
	var b bytes.Buffer
	if err := Render(&b, g, SystemDot); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	folded := page[:strings.Index(page, `id="drawing-full"`)]
	for _, e := range g.Edges {
		n := strings.Count(folded, `<g id="`+e.ID+`" class="edge tr`)
		if want := map[bool]int{true: 0, false: 1}[e.Fail]; n != want {
			t.Errorf("the folded drawing has %d elements of %s (into Fail: %v), want %d", n, e.ID, e.Fail, want)
		}
	}
}
