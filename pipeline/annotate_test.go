package pipeline

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestAnnotate: with Annotate the test case carries, for each of its
// locations but the verdicts, the reach and coreach that Explain prints;
// the file is the one without it followed by the section analysis:, and
// reads back to the same text. Z3 as oracle: the initial condition
// implies the initial location's reach (an over-approximation of the
// values it is entered with).
func TestAnnotate(t *testing.T) {
	ex := filepath.Join("..", "examples")
	for _, c := range []struct{ spec, purpose, domain string }{
		{"cmp/spec.yaml", "cmp/purpose.yaml", "polyhedra"},
		{"jobs/spec.yaml", "jobs/purpose-park.yaml", "polyhedra"},
		{"jobs/spec.yaml", "jobs/purpose-park.yaml", "interval"},
		{"jobs/spec.yaml", "jobs/purpose-park.yaml", "none"},
	} {
		t.Run(c.purpose+"/"+c.domain, func(t *testing.T) {
			sp, pp := filepath.Join(ex, c.spec), filepath.Join(ex, c.purpose)
			plain, err := Generate(sp, pp, Options{Domain: c.domain})
			if err != nil {
				t.Fatal(err)
			}
			var explained bytes.Buffer
			res, err := Generate(sp, pp, Options{Domain: c.domain, Annotate: true, Explain: &explained})
			if err != nil {
				t.Fatal(err)
			}
			a := res.Testcase.Analysis
			if a == nil || a.Domain != c.domain {
				t.Fatalf("analysis %+v, want one of domain %s", a, c.domain)
			}
			checkAnnotated(t, res.Testcase, explained.String())
			checkAnnotatedText(t, plain.Testcase, res.Testcase)
			checkRoundTrip(t, res.Testcase)
			ctx := newContext(t)
			init := a.Of(res.Testcase.Initial.Location)
			if ok, err := ctx.Valid(expr.ImpliesOf(res.Testcase.Initial.Condition, init.Reach)); err != nil || !ok {
				t.Errorf("the initial condition %s does not imply the reach %s of %s (%v)", expr.Format(res.Testcase.Initial.Condition), expr.Format(init.Reach), init.Location, err)
			}
		})
	}
}

// checkAnnotated: every non-verdict location of tc is annotated, in
// tc's order, as explain printed it.
func checkAnnotated(t *testing.T, tc *spec.Model, explained string) {
	t.Helper()
	var locs []string
	for _, l := range tc.Locations {
		if tc.Verdict(l) == "" {
			locs = append(locs, l)
		}
	}
	if len(tc.Analysis.Locations) != len(locs) {
		t.Fatalf("%d locations annotated, want %d (%v)", len(tc.Analysis.Locations), len(locs), locs)
	}
	for i, la := range tc.Analysis.Locations {
		if la.Location != locs[i] {
			t.Errorf("annotation %d is of %s, want %s", i, la.Location, locs[i])
		}
		want := la.Location + "\n    reach:   " + expr.Format(la.Reach) + "\n    coreach: " + expr.Format(la.Coreach) + "\n"
		if !strings.Contains(explained, want) {
			t.Errorf("explain does not print %q", want)
		}
	}
}

// checkAnnotatedText: the annotated file is the plain one and the
// section analysis:.
func checkAnnotatedText(t *testing.T, plain, annotated *spec.Model) {
	t.Helper()
	p, err := specfile.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	a, err := specfile.Marshal(annotated)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(a, p) || !bytes.HasPrefix(a[len(p):], []byte("analysis:\n")) {
		t.Errorf("the annotated test case is not the plain one and analysis:\n%s\n---\n%s", p, a)
	}
}
