package e2e

import (
	"os"
	"testing"

	"github.com/stg-tool/stg/internal/exampleprog"
)

// TestMain lets the test binary stand for the examples' programs
// (exampleprog): the process suites start it under a program's name
// rather than linking a binary per program.
func TestMain(m *testing.M) {
	exampleprog.Main(nil)
	os.Exit(m.Run())
}

// linkProgram returns the path of the program of example's sut/name
// (exampleprog.Link into dir).
func linkProgram(t *testing.T, dir, example, name string) string {
	t.Helper()
	p, err := exampleprog.Link(dir, "", exampleprog.Package(example, name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
