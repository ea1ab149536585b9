package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// chromium returns the path of a Chromium or Chrome program, or skips.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH: the page is not tested in a browser (Debian: apt-get install chromium; .ci/run installs it)")
	return ""
}

// jobsParkPage makes the page of the jobs park test case, generated with
// --annotate, with the coverage of 10 runs against the correct server
// and the trace of a run that fails against the off-by-one mutant; it
// returns the page's path, the test case's, and the path of the page of
// the test case generated without --annotate.
func jobsParkPage(t *testing.T) (page, testcase, plain string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the SUTs and plays runs")
	}
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("no Graphviz dot: stg view needs it")
	}
	dir := t.TempDir()
	bin := map[string]string{}
	for _, name := range []string{"correct", "mutant-off-by-one"} {
		bin[name] = buildProgram(t, "./examples/jobs/sut/"+name)
	}
	file := func(name string) string { return filepath.Join(dir, name) }
	must := func(want int, args ...string) {
		if code, out, errOut := stg(t, args...); code != want {
			t.Fatalf("stg %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, errOut)
		}
	}
	must(0, "generate", "--annotate", jobsSpec, jobsPurposePark, "-o", file("park.tc.yaml"))
	must(0, "generate", jobsSpec, jobsPurposePark, "-o", file("plain.tc.yaml"))
	must(0, "view", file("plain.tc.yaml"), "-o", file("plain.html"))
	must(0, "run", file("park.tc.yaml"), "--seed", "1", "--runs", "10", "--report-json", file("park.json"), "--", bin["correct"])
	must(1, "run", file("park.tc.yaml"), "--seed", "1", "--save-trace", file("fail.jsonl"), "--", bin["mutant-off-by-one"])
	must(0, "view", file("park.tc.yaml"), "--coverage", file("park.json"), "--trace", file("fail.jsonl"), "-o", file("park.html"))
	return file("park.html"), file("park.tc.yaml"), file("plain.html")
}

// TestViewInChromium opens the page of the jobs park test case in
// headless Chromium and checks what a user sees: an SVG with one edge
// element per transition drawn, no network request, the guard of a
// transition in the panel after a click, the never-taken transitions
// marked, the trace's failing step highlighted, the reach and coreach of
// a location and a transition after a click (and, in the page of the
// test case generated without --annotate, how to get them). With STG_VIEW_SHOT=FILE
// it saves a 1600x1000 screenshot there (docs/view-jobs-park.png).
//
// A long test (a browser's start costs more CPU than the rest of the
// view's tests): STG_LONG=1 plays it; TestViewKinds checks the page.
func TestViewInChromium(t *testing.T) {
	testlong.Skip(t)
	browser := chromium(t)
	page, tc, plain := jobsParkPage(t)
	m, err := loadModel(tc, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := expr.Format(m.Transitions[0].Guard)
	if m.Analysis == nil {
		t.Fatal("stg generate --annotate wrote no analysis")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser),
		chromedp.NoSandbox, chromedp.WindowSize(1600, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// A bound against a browser that hangs, not a timing assertion.
	ctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()

	var requests []string
	chromedp.ListenTarget(ctx, func(ev any) {
		if r, ok := ev.(*network.EventRequestWillBeSent); ok && !strings.HasPrefix(r.Request.URL, "file:") {
			requests = append(requests, r.Request.URL)
		}
	})
	var edges, failEdges, never, unreachable, matches int
	var guard, location, stepClass, stepText string
	err = chromedp.Run(ctx,
		network.Enable(),
		chromedp.EmulateViewport(1600, 1000),
		chromedp.Navigate("file://"+page),
		chromedp.WaitVisible("#drawing-folded svg g.edge", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#drawing-folded svg g.edge.tr:not(.failedge)").length`, &edges),
		chromedp.Evaluate(`document.querySelectorAll("#drawing-full svg g.edge.failedge").length`, &failEdges),
		chromedp.Evaluate(`document.querySelectorAll("#drawing-folded svg g.edge.cov-never").length`, &never),
		chromedp.Evaluate(`document.querySelectorAll("#drawing-folded svg g.edge.cov-unreachable").length`, &unreachable),
		// The second location: click its name.
		chromedp.Click(`#drawing-folded svg g#n1 text`, chromedp.ByQuery),
		chromedp.Text("#details", &location, chromedp.ByQuery),
		// The first transition, a send !submit(n) [guard]: click its label.
		chromedp.Click(`#drawing-folded svg g#t0 text`, chromedp.ByQuery),
		chromedp.Text("#details", &guard, chromedp.ByQuery),
		// Search: the locations named Parked, the edges of poke.
		chromedp.SendKeys("#search", "parked", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#drawing-folded svg g.node.match").length`, &matches),
		chromedp.Evaluate(`var s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); 0`, nil),
		chromedp.Click("#next", chromedp.ByQuery),
	)
	if err != nil {
		t.Fatal(err)
	}
	// Step to the trace's last (failing) step.
	for i := 0; i < 20; i++ {
		if err := chromedp.Run(ctx, chromedp.Click("#next", chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll("svg g.edge.badstep")).map(g => g.id).join(" ")`, &stepClass),
		chromedp.Text("#steps li.current", &stepText, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	parked := 0
	for _, l := range m.Locations {
		if strings.Contains(strings.ToLower(l), "parked") {
			parked++
		}
	}
	if matches != parked {
		t.Errorf("searching \"parked\" marks %d locations, want %d", matches, parked)
	}
	if !strings.Contains(guard, "guard\n"+want) {
		t.Errorf("after a click on t0 the panel shows %q, want its guard %s", guard, want)
	}
	checkAnalysisPanel(t, m, location, guard)
	checkPage(t, page, edges, failEdges, never, unreachable, stepClass, stepText, requests)
	if shot := os.Getenv("STG_VIEW_SHOT"); shot != "" {
		var png []byte
		if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&png)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(shot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var hint string
	if err := chromedp.Run(ctx,
		chromedp.Navigate("file://"+plain),
		chromedp.WaitVisible("#drawing-folded svg g.edge", chromedp.ByQuery),
		chromedp.Click(`#drawing-folded svg g#n1 text`, chromedp.ByQuery),
		chromedp.Text("#details", &hint, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hint, "reach and coreach\nnot in this file: generate the test case with stg generate --annotate") {
		t.Errorf("without --annotate, a click on a location shows %q, want how to get reach and coreach", hint)
	}
}

// checkAnalysisPanel checks the panel after a click on the location n1
// (its reach and coreach) and on the transition t0 (its source's reach
// and its target's coreach), as the test case's analysis says.
func checkAnalysisPanel(t *testing.T, m *spec.Model, location, transition string) {
	t.Helper()
	la := m.Analysis.Of(m.Locations[1])
	if la == nil || !strings.Contains(location, "reach\n"+expr.Format(la.Reach)) || !strings.Contains(location, "coreach\n"+expr.Format(la.Coreach)) {
		t.Errorf("after a click on %s the panel shows %q, want its reach and coreach %+v", m.Locations[1], location, la)
	}
	t0 := m.Transitions[0]
	from, to := m.Analysis.Of(t0.From), m.Analysis.Of(t0.To)
	if !strings.Contains(transition, "source reach\n"+expr.Format(from.Reach)) || !strings.Contains(transition, "target coreach\n"+expr.Format(to.Coreach)) {
		t.Errorf("after a click on t0 the panel shows %q, want the reach of %s and the coreach of %s", transition, t0.From, t0.To)
	}
}

func checkPage(t *testing.T, page string, edges, failEdges, never, unreachable int, stepClass, stepText string, requests []string) {
	t.Helper()
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	// Every transition of the test case is an edge: those not into Fail
	// of the first drawing, those into Fail of the full one.
	total := strings.Count(string(html), `class="tr-item"`)
	if edges == 0 || failEdges == 0 || edges+failEdges != total {
		t.Errorf("the folded drawing has %d edges, the full one %d into Fail; the test case has %d transitions", edges, failEdges, total)
	}
	if never == 0 || unreachable == 0 {
		t.Errorf("coverage marks %d edges never taken and %d unreachable, want some of each", never, unreachable)
	}
	if stepClass == "" || !strings.Contains(stepText, "result") || !strings.Contains(stepText, "fail") {
		t.Errorf("the failing step is %q (edges %q), want the result into Fail highlighted", stepText, stepClass)
	}
	if len(requests) > 0 {
		t.Errorf("the page fetched %v, want no network request", requests)
	}
}

// TestViewKinds writes the page of each kind of file stg reads or writes
// and checks it has a drawing and one list item per transition.
func TestViewKinds(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("no Graphviz dot: stg view needs it")
	}
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	tc := writeFile(t, "tc.yaml", tcModel)
	quidonc := filepath.Join("..", "..", "examples", "quidonc")
	for _, args := range [][]string{
		{"symex", atmPaper, "--depth", "2", "--format", "json", "-o", file("tree.json")},
		{"symex", atmPaper, "--depth", "2", "--format", "yaml", "-o", file("tree.yaml")},
		{"abstract", "--format", "yaml", filepath.Join(quidonc, "spec.yaml"), filepath.Join(quidonc, "purpose-fig4.yaml")},
	} {
		code, out, errOut := stg(t, args...)
		if code != 0 {
			t.Fatalf("stg %v: exit %d\n%s%s", args, code, out, errOut)
		}
		if args[0] == "abstract" {
			if err := os.WriteFile(file("abs.yaml"), []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name  string
		args  []string
		title string
	}{
		{"spec", []string{cmpSpec}, "spec cmp"},
		{"purpose", []string{cmpPurpose}, "purpose "},
		{"spec and purpose", []string{cmpSpec, cmpPurpose}, "purpose "},
		{"testcase", []string{tc}, "testcase "},
		{"system", []string{filepath.Join("..", "..", "examples", "slot", "system.yaml")}, "(composed)"},
		{"sympurpose", []string{writeSymPurpose(t, "deposit ask cash")}, "sympurpose p"},
		{"tree json", []string{file("tree.json")}, "symbolic tree"},
		{"tree yaml", []string{file("tree.yaml")}, "symbolic tree"},
		{"abstraction", []string{file("abs.yaml")}, "abstraction of quidonc"},
	} {
		out := file(strings.ReplaceAll(c.name, " ", "-") + ".html")
		code, stdout, errOut := stg(t, append(append([]string{"view"}, c.args...), "-o", out)...)
		if code != 0 {
			t.Errorf("%s: exit %d\n%s%s", c.name, code, stdout, errOut)
			continue
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		page := string(data)
		if title := page[strings.Index(page, "<title>"):strings.Index(page, "</title>")]; !strings.Contains(title, c.title) {
			t.Errorf("%s: the page's title is not %q", c.name, c.title)
		}
		items, edges := strings.Count(page, `class="tr-item"`), strings.Count(page, `class="edge tr`)
		if items == 0 || edges < items {
			t.Errorf("%s: %d transitions listed, %d edges drawn", c.name, items, edges)
		}
	}
}

func TestViewErrors(t *testing.T) {
	tc := writeFile(t, "tc.yaml", tcModel)
	report := writeFile(t, "r.json", `{"testcase":"other","coverage":{"transitions":[]}}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"view"}, "takes one file"},
		{[]string{"view", "nowhere.yaml"}, "nowhere.yaml"},
		{[]string{"view", cmpSpec, "--coverage", report}, "--coverage is of a test case, not of a spec"},
		{[]string{"view", tc, "--coverage", report}, "is of test case other"},
		{[]string{"view", tc, "--trace", "nowhere.jsonl"}, "nowhere.jsonl"},
		{[]string{"view", writeFile(t, "x.yaml", "a: 1\n")}, "x.yaml"},
	} {
		code, _, errOut := stg(t, c.args...)
		if code != exitError || !strings.Contains(errOut, c.want) {
			t.Errorf("stg %v: exit %d, stderr %q; want exit 3 and %q", c.args, code, errOut, c.want)
		}
	}
}

// BenchmarkViewPageInChromium opens in headless Chromium the page of
// the atm-paper symbolic tree of depth 7 (1,587 nodes; STG_VIEW_DEPTH
// another depth): an op is a navigation until the first edge is
// visible; search-ms is the time the search box takes to mark "cash".
// Making the page (stg symex, stg view) is outside the timing.
func BenchmarkViewPageInChromium(b *testing.B) {
	browser := chromium(b)
	if _, err := exec.LookPath("dot"); err != nil {
		b.Skip("no Graphviz dot: stg view needs it")
	}
	depth := os.Getenv("STG_VIEW_DEPTH")
	if depth == "" {
		depth = "7"
	}
	dir := b.TempDir()
	tree, page := filepath.Join(dir, "tree.json"), filepath.Join(dir, "tree.html")
	for _, args := range [][]string{
		{"symex", atmPaper, "--depth", depth, "--format", "json", "-o", tree},
		{"view", tree, "-o", page},
	} {
		var out bytes.Buffer
		if code := run(append([]string{"stg"}, args...), &out, &out); code != 0 {
			b.Fatalf("stg %v: exit %d\n%s", args, code, out.String())
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser),
		chromedp.NoSandbox, chromedp.WindowSize(1600, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := chromedp.Run(ctx, chromedp.Navigate("file://"+page),
			chromedp.WaitVisible("#drawing-folded svg g.edge", chromedp.ByQuery)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var search float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(function () { var s = document.getElementById("search"), t = performance.now();
		s.value = "cash"; s.dispatchEvent(new Event("input")); return performance.now() - t; })()`, &search)); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(search, "search-ms")
}
