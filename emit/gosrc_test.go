package emit

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

func init() {
	// The golden files of this package share one -update flag.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const cmpTestcase = "../runner/testdata/cmp.yaml"

func loadCmpTestcase(t *testing.T) *spec.Model {
	t.Helper()
	m, err := spec.LoadFile(cmpTestcase, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGoSourceGolden(t *testing.T) {
	src, err := GoSource(loadCmpTestcase(t), "cmp_test")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "gosrc_cmp_test.go.golden")
	if updateGolden() {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(src, want) {
		t.Errorf("GoSource differs from %s (run go test -update if the change is right):\n%s", path, src)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "gen_test.go", src, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != "github.com/stg-tool/stg/runner" && p != "github.com/stg-tool/stg/adapter" && strings.Contains(p, ".") {
			t.Errorf("the generated file imports %s", p)
		}
	}
}

func TestGoSourceErrors(t *testing.T) {
	if _, err := GoSource(loadCmpTestcase(t), "not a name"); err == nil {
		t.Error("a bad package name was accepted")
	}
	sp, err := spec.LoadFile("../examples/cmp/spec.yaml", nil)
	if err != nil {
		t.Skip(err)
	}
	if _, err := GoSource(sp, "x"); err == nil || !strings.Contains(err.Error(), "not a testcase") {
		t.Errorf("a spec: %v", err)
	}
}

// TestTestcaseRoundTrip checks that the embedded Go data gives back the
// test case.
func TestTestcaseRoundTrip(t *testing.T) {
	m := loadCmpTestcase(t)
	data, err := runner.FromModel(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := data.Model()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := spec.Marshal(m)
	got, _ := spec.Marshal(back)
	if !bytes.Equal(got, want) {
		t.Errorf("round trip:\n%s\nwant\n%s", got, want)
	}
}

func TestCamelName(t *testing.T) {
	for in, want := range map[string]string{
		"cmp-reach-ok2": "CmpReachOk2",
		"a.b_c":         "ABC",
		"2fast":         "Testcase2fast",
		"x":             "X",
	} {
		if got := camelName(in); got != want {
			t.Errorf("camelName(%q) = %q, want %q", in, got, want)
		}
	}
}

// inProcessTest uses the generated helper with a Go implementation of cmp.
const inProcessTest = `package cmp_test

import (
	"math/big"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
)

type cmp struct {
	x    *big.Int
	diff int64 // added to y-x: 0 is the correct implementation
}

func (c *cmp) Input(action string, args map[string]spec.Value) ([]adapter.Output, error) {
	p := args["p"].Int
	if c.x == nil {
		c.x = p
		return nil, nil
	}
	d := new(big.Int).Sub(p, c.x)
	d.Add(d, big.NewInt(c.diff))
	c.x = nil
	act := "nok"
	if d.Cmp(big.NewInt(2)) >= 0 {
		act = "ok"
	}
	return []adapter.Output{{Action: act, Args: map[string]any{"p": d}}, {Action: "end"}}, nil
}

func TestInProcessCorrect(t *testing.T) {
	runCmpReachOk2(t, func() adapter.SUT { return &cmp{} })
}

func TestInProcessMutant(t *testing.T) {
	runCmpReachOk2(t, func() adapter.SUT { return &cmp{diff: 1} })
}
`

// TestGoSourceRuns builds the generated test in a module of its own and
// runs it with go test against the example SUTs of examples/cmp.
func TestGoSourceRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go test")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in the repository root %s", root)
	}
	src, err := GoSource(loadCmpTestcase(t), "cmp_test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := "module gentest\n\ngo 1.26\n\nrequire github.com/stg-tool/stg v0.0.0\n\nreplace github.com/stg-tool/stg => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"go.mod":         []byte(mod),
		"go.sum":         sum,
		"cmp_test.go":    src,
		"inproc_test.go": []byte(inProcessTest),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd := func(dir string, env []string, args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "STG_SUT=")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	suts := map[string]string{}
	for _, name := range []string{"correct", "mutant-wrong-diff"} {
		pkg := "./examples/cmp/sut/" + name
		if _, err := os.Stat(filepath.Join(root, pkg)); err != nil {
			t.Skipf("no %s: %v", pkg, err)
		}
		suts[name] = filepath.Join(dir, name)
		if out, err := gocmd(root, nil, "build", "-o", suts[name], pkg); err != nil {
			t.Fatalf("building %s: %v\n%s", pkg, err, out)
		}
	}
	if out, err := gocmd(dir, nil, "vet", "."); err != nil {
		t.Fatalf("go vet on the generated code: %v\n%s", err, out)
	}

	out, err := gocmd(dir, nil, "test", "-count=1", "-v", "-run", "TestCmpReachOk2")
	if err != nil || !strings.Contains(out, "STG_SUT is not set") || !strings.Contains(out, "SKIP") {
		t.Errorf("without STG_SUT: %v\n%s", err, out)
	}
	out, err = gocmd(dir, []string{"STG_SUT=" + suts["correct"], "STG_RUNS=5", "STG_SEED=1"}, "test", "-count=1", "-v", "-run", "TestCmpReachOk2")
	if err != nil || !strings.Contains(out, "--- PASS: TestCmpReachOk2") {
		t.Errorf("correct SUT: %v\n%s", err, out)
	}
	out, err = gocmd(dir, []string{"STG_SUT=" + suts["mutant-wrong-diff"], "STG_SEED=1"}, "test", "-count=1", "-v", "-run", "TestCmpReachOk2")
	if err == nil || !strings.Contains(out, "--- FAIL: TestCmpReachOk2") || !strings.Contains(out, "Fail: reached Fail") || !strings.Contains(out, "STG_SEED=1") {
		t.Errorf("mutant SUT: %v\n%s", err, out)
	}
	out, err = gocmd(dir, nil, "test", "-count=1", "-v", "-run", "TestInProcess")
	if err == nil || !strings.Contains(out, "--- PASS: TestInProcessCorrect") || !strings.Contains(out, "--- FAIL: TestInProcessMutant") {
		t.Errorf("in-process SUTs: %v\n%s", err, out)
	}
}
