package emit

import (
	"bytes"
	"encoding/json"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stg-tool/stg/internal/exampleprog"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
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
	m, err := specfile.LoadFile(cmpTestcase, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGoSourceGolden(t *testing.T) {
	src, err := GoSource(loadCmpTestcase(t), DefaultGoPackage)
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
		if p != "github.com/stg-tool/stg/stgtest" && p != "github.com/stg-tool/stg/adapter" && strings.Contains(p, ".") {
			t.Errorf("the generated file imports %s", p)
		}
	}
}

func TestGoSourceErrors(t *testing.T) {
	if _, err := GoSource(loadCmpTestcase(t), "not a name"); err == nil {
		t.Error("a bad package name was accepted")
	}
	sp, err := specfile.LoadFile("../examples/cmp/spec.yaml", nil)
	if err != nil {
		t.Skip(err)
	}
	if _, err := GoSource(sp, "x"); err == nil || !strings.Contains(err.Error(), "not a testcase") {
		t.Errorf("a spec: %v", err)
	}
	// External functions are evaluated at test time by stgtest
	// (package extfunc): their declaration is embedded.
	withFuncs := loadCmpTestcase(t)
	withFuncs.Funcs = []*expr.Func{{Name: "F", Result: expr.IntType, Impl: "./f"}}
	if src, err := GoSource(withFuncs, "x"); err != nil || !strings.Contains(string(src), "impl: ./f") {
		t.Errorf("a test case with external functions: %v\n%s", err, src)
	}
}

// TestEmbeddedTestcase checks that the YAML text the generated file
// embeds reads back, with spec's loader, to the test case, for texts a
// raw string literal can hold and texts it cannot.
func TestEmbeddedTestcase(t *testing.T) {
	odd := loadCmpTestcase(t)
	odd.Name = "cmp-odd"
	for i, l := range odd.Locations {
		if l == "Ry,Wait" {
			odd.Locations[i] = "Ry`Wait\r"
		}
	}
	for _, tr := range odd.Transitions {
		for _, l := range []*string{&tr.From, &tr.To} {
			if *l == "Ry,Wait" {
				*l = "Ry`Wait\r"
			}
		}
	}
	for _, m := range []*spec.Model{loadCmpTestcase(t), odd} {
		src, err := GoSource(m, "x_test")
		if err != nil {
			t.Fatal(err)
		}
		text := embeddedText(t, src, "testcase"+camelName(m.Name))
		back, err := specfile.ParseModel("embedded", []byte(text), nil)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		want, _ := specfile.Marshal(m)
		got, _ := specfile.Marshal(back)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: round trip:\n%s\nwant\n%s", m.Name, got, want)
		}
	}
}

// embeddedText returns the value of the string constant name of src.
func embeddedText(t *testing.T, src []byte, name string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "gen_test.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	obj := f.Scope.Lookup(name)
	if obj == nil || obj.Kind != ast.Con {
		t.Fatalf("no constant %s in\n%s", name, src)
	}
	lit, ok := obj.Decl.(*ast.ValueSpec).Values[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		t.Fatalf("%s is not a string literal", name)
	}
	text, err := strconv.Unquote(lit.Value)
	if err != nil {
		t.Fatal(err)
	}
	return text
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
const inProcessTest = `package stgtests

import (
	"math/big"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

type cmp struct {
	x    *big.Int
	diff int64 // added to y-x: 0 is the correct implementation
}

func (c *cmp) Input(action string, args map[string]expr.Value) ([]adapter.Output, error) {
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

// TestGoSourceRuns builds the generated test with go test -c, once, and
// runs it against the example SUTs of examples/cmp and against Go code in
// the same process.
//
// The generated files are compiled as a package of the main module,
// github.com/stg-tool/stg/emit/testdata, through go's -overlay flag: the
// overlay maps two files that do not exist in emit/testdata onto files in
// a temporary directory. So the build uses the main module's go.mod and
// go.sum and needs no module besides those this test's own build needed,
// which are in the module cache: it runs with GOPROXY=off, on a fresh
// clone with a fresh cache as well (a module of its own, in a temporary
// directory, needs the go.mod files of the whole module graph, which a
// fresh cache lacks). Nothing is written under the repository, so
// concurrent runs, and runs killed by a time-out, leave nothing behind.
// The directory exists (go vet and the test binary run there) and holds
// no Go file of its own.
func TestGoSourceRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go test")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// Three generated files share the directory: two test cases and a
	// table of both.
	files := generatedFiles(t)
	files["inproc_test.go"] = []byte(inProcessTest)
	dir := t.TempDir()
	overlay := map[string]string{}
	for name, data := range files {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(root, "emit", "testdata", name)] = file
	}
	overlayJSON, _ := json.Marshal(map[string]any{"Replace": overlay})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlayJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	gocmd := func(env []string, args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "STG_SUT=", "STG_SEED=", "STG_RUNS=", "STG_QUIESCENCE=")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	suts := map[string]string{}
	for _, name := range []string{"correct", "mutant-wrong-diff"} {
		pkg := "./examples/cmp/sut/" + name
		bin, err := exampleprog.Link(dir, "", pkg) // this test binary, run as the program by TestMain
		if err != nil {
			t.Fatal(err)
		}
		suts[name] = bin
	}
	const pkg = "./emit/testdata"
	if out, err := gocmd(nil, "vet", "-overlay", overlayFile, pkg); err != nil {
		t.Fatalf("go vet on the generated code: %v\n%s", err, out)
	}
	// The test binary is built once and run as go test runs it: in the
	// package's directory, with the -test. flags.
	bin := filepath.Join(dir, "testdata.test")
	if out, err := gocmd(nil, "test", "-c", "-o", bin, "-overlay", overlayFile, pkg); err != nil {
		t.Fatalf("go test -c on the generated code: %v\n%s", err, out)
	}
	gotest := func(env []string, run string) (string, error) {
		cmd := exec.Command(bin, "-test.count=1", "-test.v", "-test.run", run)
		cmd.Dir = filepath.Join(root, "emit", "testdata")
		cmd.Env = append(os.Environ(), "STG_SUT=", "STG_SEED=", "STG_RUNS=", "STG_QUIESCENCE=")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, tt := range []struct {
		name string
		env  []string
		run  string
		pass bool
		want []string
	}{
		{"without STG_SUT", nil, "TestCmpReachOk2", true, []string{"STG_SUT is not set", "--- SKIP: TestCmpReachOk2"}},
		{"correct SUT", []string{"STG_SUT=" + suts["correct"], "STG_RUNS=5", "STG_SEED=1"}, "TestCmpReachOk2", true,
			[]string{"--- PASS: TestCmpReachOk2", "--- PASS: TestCmpReachOk2/seed=5", "run 5/5, seed 5: Pass"}},
		{"table of test cases", []string{"STG_SUT=" + suts["correct"], "STG_SEED=1"}, "TestCmp$", true,
			[]string{"--- PASS: TestCmp/cmp-reach-ok2/seed=1", "--- PASS: TestCmp/cmp-again/seed=1"}},
		// A SUT that answers only after 3s (issue 8: "a SUT that needs 3 s
		// to start gets the right verdicts with default options"): the
		// start-up allowance and the confirmation of a silence that would
		// fail (5s each) must not take its silence for quiescence.
		{"slow correct SUT", []string{"STG_SUT=sh -c 'sleep 3; exec " + suts["correct"] + "'", "STG_SEED=1"}, "TestCmpReachOk2", true,
			[]string{"--- PASS: TestCmpReachOk2"}},
		{"mutant SUT", []string{"STG_SUT=" + suts["mutant-wrong-diff"], "STG_SEED=1"}, "TestCmpReachOk2", false,
			[]string{"--- FAIL: TestCmpReachOk2", "Fail: reached Fail", "--- FAIL: TestCmpReachOk2/seed=1", "replay: STG_SUT=" + suts["mutant-wrong-diff"] + " STG_SEED=1 STG_RUNS=1 go test -run '^TestCmpReachOk2$/^seed=1$'"}},
		{"malformed variable", []string{"STG_SUT=" + suts["correct"], "STG_QUIESCENCE=soon"}, "TestCmpReachOk2", false,
			[]string{"--- FAIL: TestCmpReachOk2", `STG_QUIESCENCE="soon"`}},
		{"in process", []string{"STG_SEED=1"}, "TestInProcess", false,
			[]string{"--- PASS: TestInProcessCorrect", "--- FAIL: TestInProcessMutant", "replay: STG_SEED=1 STG_RUNS=1 go test -run '^TestInProcessMutant$/^seed=1$'"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := gotest(tt.env, tt.run)
			if (err == nil) != tt.pass {
				t.Errorf("the test binary: %v, want success %v", err, tt.pass)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("%q is missing from the output", w)
				}
			}
			if t.Failed() {
				t.Logf("output of go test with %q:\n%s", tt.env, out)
			}
		})
	}
}

// generatedFiles returns the Go test files of two test cases (cmp's and
// a copy named cmp-again) and of a table of both, as stg generate writes
// them into one directory.
func generatedFiles(t *testing.T) map[string][]byte {
	t.Helper()
	again := loadCmpTestcase(t)
	again.Name = "cmp-again"
	tcs := []*spec.Model{loadCmpTestcase(t), again}
	files := map[string][]byte{}
	for _, tc := range tcs {
		src, err := GoSource(tc, DefaultGoPackage)
		if err != nil {
			t.Fatal(err)
		}
		files[tc.Name+"_test.go"] = src
	}
	src, err := GoTableSource("cmp", tcs, DefaultGoPackage)
	if err != nil {
		t.Fatal(err)
	}
	files["cmp_test.go"] = src
	return files
}

func TestGoTableSourceGolden(t *testing.T) {
	src := generatedFiles(t)["cmp_test.go"]
	checkGolden(t, filepath.Join("testdata", "gotable_cmp_test.go.golden"), string(src))
	if _, err := GoTableSource("cmp", nil, "x"); err == nil {
		t.Error("an empty table was accepted")
	}
	tc := loadCmpTestcase(t)
	if _, err := GoTableSource("cmp", []*spec.Model{tc, tc}, "x"); err == nil || !strings.Contains(err.Error(), "two test cases are named cmp-reach-ok2") {
		t.Errorf("two test cases of one name: %v", err)
	}
}

func TestGoPackageFor(t *testing.T) {
	empty := t.TempDir()
	withPkg := t.TempDir()
	os.WriteFile(filepath.Join(withPkg, "a.go"), []byte("package buffer\n"), 0o644)
	os.WriteFile(filepath.Join(withPkg, "a_test.go"), []byte("package buffer\n"), 0o644)
	testsOnly := t.TempDir()
	os.WriteFile(filepath.Join(testsOnly, "x_test.go"), []byte("package mytests\n"), 0o644)
	for dir, want := range map[string]string{empty: "stgtests", withPkg: "buffer_test", testsOnly: "mytests", filepath.Join(empty, "none"): "stgtests"} {
		if got := GoPackageFor(dir); got != want {
			t.Errorf("GoPackageFor(%s) = %s, want %s", dir, got, want)
		}
	}
}
