package doctest

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stg-tool/stg/internal/exampleprog"
)

var update = flag.Bool("update", false, "rewrite the expected outputs of testdata/*.txtar")

// programs are the binaries the documentation builds with
// `go build -o NAME ./PACKAGE`; build makes them once, and every script
// finds them in its working directory as ./NAME. TestDocCommands checks that
// the pages build no other.
var programs = map[string]string{
	"cmp-correct":      "./examples/cmp/sut/correct",
	"atm-correct":      "./examples/atm/sut/correct",
	"atm-no-fee":       "./examples/atm/sut/mutant-no-fee",
	"jobs-correct":     "./examples/jobs/sut/correct",
	"retry-correct":    "./examples/retry/sut/correct",
	"vending-correct":  "./examples/vending/sut/correct",
	"cmp-wrong":        "./examples/cmp/sut/mutant-wrong-diff",
	"buffer-correct":   "./examples/buffer/sut/correct",
	"lucky":            "./examples/lucky/sut/correct",
	"lucky-ci":         "./examples/lucky/sut/mutant-case-insensitive",
	"atm":              "./examples/atm-paper/sut/correct",
	"mg":               "./examples/microgrid/sut/correct",
	"mg-alarm":         "./examples/microgrid/sut/mutant-alarm-threshold",
	"sm":               "./examples/slot/sut/correct",
	"sm-9x":            "./examples/slot/sut/mutant-pays-9x",
	"quidonc":          "./examples/quidonc/sut/correct",
	"quidonc-no-reset": "./examples/quidonc/sut/mutant-no-reset-on-entry",
	"account-correct":  "./examples/account/sut/correct",
	"account-beyond":   "./examples/account/sut/mutant-pays-beyond-balance",
}

// binDir holds stg and the programs, built by build.
var binDir string

func TestMain(m *testing.M) {
	// Started as one of the programs (a link buildAll makes): be it.
	exampleprog.Main(programs)
	flag.Parse()
	code, err := buildAndRun(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doctest:", err)
		os.Exit(3)
	}
	os.Exit(code)
}

func buildAndRun(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "stg-doctest-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	binDir = dir
	return m.Run(), nil
}

// build builds the binaries once, when the first script needs them, so
// that the checks of the pages alone run at once.
var build = sync.OnceValue(func() error {
	if err := readGoEnv(); err != nil {
		return err
	}
	return buildAll(binDir)
})

// buildAll builds stg and links the programs: each is this test binary,
// which runs the program its name says (exampleprog), as
// `go build -o NAME PACKAGE` would make it, without a link of its own.
func buildAll(dir string) error {
	for name, pkg := range programs {
		if _, err := exampleprog.Link(dir, name, pkg); err != nil {
			return err
		}
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "stg"), "./cmd/stg")
	cmd.Dir = repoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/stg: %v\n%s", err, out)
	}
	return nil
}

// repoRoot is the repository's top directory: the parent of this package.
func repoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Dir(wd)
}

// TestScripts plays testdata/*.txtar. Each script runs in a fresh
// directory that holds a link to the repository's examples/ and the
// programs, with stg on PATH, so it types the commands as the pages show
// them.
func TestScripts(t *testing.T) {
	if err := build(); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup:               setupWorkDir,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
	})
}

func setupWorkDir(env *testscript.Env) error {
	root := repoRoot()
	for _, dir := range []string{"examples", "online"} { // online/testdata: online/README.md
		if err := os.Symlink(filepath.Join(root, dir), filepath.Join(env.WorkDir, dir)); err != nil {
			return err
		}
	}
	for name := range programs {
		if err := os.Symlink(filepath.Join(binDir, name), filepath.Join(env.WorkDir, name)); err != nil {
			return err
		}
	}
	env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
	env.Setenv("REPO", root)
	env.Setenv("STG", env.WorkDir) // the pages' name for the clone
	for k, v := range goEnv {
		env.Setenv(k, v)
	}
	return nil
}

// goEnv lets scripts run the go command offline, on this machine's caches.
var goEnv = map[string]string{
	"GOPROXY":     "off",
	"GOSUMDB":     "off",
	"GOFLAGS":     "-mod=mod",
	"GOTOOLCHAIN": "local",
}

// readGoEnv fills goEnv with the caches `go env` names.
func readGoEnv() error {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return fmt.Errorf("go env: %v", err)
	}
	vals := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if i < len(vals) {
			goEnv[k] = vals[i]
		}
	}
	return nil
}

// cmdStatus runs `status N PROGRAM ARGS...`: PROGRAM must exit with code N;
// its stdout and stderr are kept for the next stdout, stderr and cmp.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with code %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}
