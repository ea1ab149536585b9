package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stg-tool/stg/internal/exampleprog"
)

// builds holds the programs this package's tests start (stg itself and
// the examples' SUTs): each is this test binary, linked once under the
// program's name (linkProgram), so that no test links a binary.
var builds struct {
	dir  string // removed by TestMain
	mu   sync.Mutex
	bins map[string]func() (string, error)
}

func TestMain(m *testing.M) {
	// Started as stg or as an example's program: be that program.
	if filepath.Base(os.Args[0]) == "stg" {
		os.Exit(run(os.Args, os.Stdout, os.Stderr))
	}
	exampleprog.Main(nil)
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
// stg), made on the first call. Under -short it skips the test.
func buildProgram(t *testing.T, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("starts %s", pkg)
	}
	builds.mu.Lock()
	if builds.bins == nil {
		builds.bins = map[string]func() (string, error){}
	}
	b, ok := builds.bins[pkg]
	if !ok {
		b = sync.OnceValues(func() (string, error) { return linkProgram(pkg) })
		builds.bins[pkg] = b
	}
	builds.mu.Unlock()
	bin, err := b()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// linkProgram links this test binary into builds.dir under the name of
// package pkg's program: stg for ".", which TestMain runs as stg's main
// does, or exampleprog's name of an example's program.
func linkProgram(pkg string) (string, error) {
	if pkg != "." {
		return exampleprog.Link(builds.dir, "", pkg)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(builds.dir, "stg")
	return bin, os.Symlink(exe, bin)
}
