package emit

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// GoPackageFor returns the package clause of a generated Go test file
// written into dir, so that it compiles with the Go files already there:
// P_test beside the files of package P (an external test package, which
// imports only stgtest), the package of the test files when there are
// only test files (files generated before), DefaultGoPackage in a
// directory without Go files.
func GoPackageFor(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(files)
	var testPkg string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.PackageClauseOnly)
		if err != nil {
			continue
		}
		name := af.Name.Name
		if !strings.HasSuffix(f, "_test.go") {
			return strings.TrimSuffix(name, "_test") + "_test"
		}
		if testPkg == "" {
			testPkg = name
		}
	}
	if testPkg != "" {
		return testPkg
	}
	return DefaultGoPackage
}
