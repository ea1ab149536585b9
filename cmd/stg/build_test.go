package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// builds holds the programs this package's tests build (stg itself and
// the examples' SUTs), each built once for all the tests that play it:
// a build links a binary, the largest share of a short test's cost.
var builds struct {
	dir  string // removed by TestMain
	mu   sync.Mutex
	bins map[string]func() (string, error)
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "stg-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	builds.dir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildProgram returns the path of the program of package pkg (a path
// from the repository's top, "./examples/cmp/sut/correct", or "." for
// stg), built on the first call. Under -short it skips the test.
func buildProgram(t *testing.T, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("builds %s", pkg)
	}
	builds.mu.Lock()
	if builds.bins == nil {
		builds.bins = map[string]func() (string, error){}
	}
	b, ok := builds.bins[pkg]
	if !ok {
		b = sync.OnceValues(func() (string, error) { return goBuild(pkg) })
		builds.bins[pkg] = b
	}
	builds.mu.Unlock()
	bin, err := b()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// goBuild builds package pkg into builds.dir.
func goBuild(pkg string) (string, error) {
	name := "stg"
	dir := "."
	if pkg != "." {
		name = strings.ReplaceAll(strings.TrimPrefix(pkg, "./"), "/", "-")
		dir = filepath.Join("..", "..")
	}
	bin := filepath.Join(builds.dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", pkg, err, out)
	}
	return bin, nil
}
