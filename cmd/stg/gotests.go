package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// generatedPackage returns the package clause of stg generate --format go:
// --package, else the one that compiles beside the Go files of -o's
// directory (emit.GoPackageFor: P_test beside package P, stgtests in a
// directory without Go files or on stdout). It never depends on the
// purpose, so that the files of several purposes share a directory.
func generatedPackage(c *cli.Context) string {
	if p := c.String("package"); p != "" {
		return p
	}
	if o := c.String("o"); o != "" {
		return emit.GoPackageFor(filepath.Dir(o))
	}
	return emit.DefaultGoPackage
}

// warnGoFile warns when --format go writes to a file go test ignores.
func warnGoFile(c *cli.Context) {
	if o := c.String("o"); o != "" && !strings.HasSuffix(o, "_test.go") {
		fmt.Fprintf(c.App.ErrWriter, "warning: %s does not end in _test.go: go test will not run it (name it e.g. %s)\n", o, strings.TrimSuffix(strings.TrimSuffix(o, ".go"), "_test")+"_test.go")
	}
}

// encodeTestcase is pipeline.Encode with stg generate's package rule and
// warnings.
func encodeTestcase(c *cli.Context, tc *spec.Model, format string) ([]byte, error) {
	if format != "go" {
		return pipeline.Encode(tc, format, "")
	}
	warnGoFile(c)
	return emit.GoSource(tc, generatedPackage(c))
}

// generateSeveral is stg generate SPEC PURPOSE PURPOSE...: one test case
// per purpose. --format go writes them into one Go file, a table-driven
// test named after the spec; yaml and dot need -o DIR, a directory that
// gets one file per test case, NAME.tc.yaml or NAME.dot.
func generateSeveral(c *cli.Context, args []string, opts pipeline.Options, format string) error {
	out := c.String("o")
	if format != "go" {
		if st, err := os.Stat(out); out == "" || err != nil || !st.IsDir() {
			return usageError(c, "several purposes are written with --format go (one table-driven test) or, one file each, with -o DIR naming a directory")
		}
	} else if err := notAnInput(out, args); err != nil {
		return tool.InputError(err)
	}
	var tcs []*spec.Model
	var specName string
	for _, p := range args[1:] {
		if err := swappedSpecPurpose("generate", args[0], p); err != nil {
			return tool.InputError(err)
		}
		res, err := generateFiles(args[0], p, opts)
		if err != nil {
			return tool.InputError(err)
		}
		if opts.Domain != "polyhedra" {
			if err := warnPassReachable(res.Testcase, opts.QueryTimeout, c.App.ErrWriter); err != nil {
				return tool.InputError(err)
			}
		}
		dir := out // yaml, dot: -o DIR
		if format == "go" {
			dir = outputDir(out)
		}
		if err := anchorImpls(res.Testcase, dir); err != nil { // funcs.go: impl: commands keep their directory
			return tool.InputError(err)
		}
		specName = res.Spec.Name
		tcs = append(tcs, res.Testcase)
	}
	if format == "go" {
		warnGoFile(c)
		src, err := emit.GoTableSource(specName, tcs, generatedPackage(c))
		if err != nil {
			return tool.InputError(err)
		}
		return tool.WriteOutput(c.App.Writer, out, src)
	}
	ext := map[string]string{"yaml": ".tc.yaml", "dot": ".dot"}[format]
	for _, tc := range tcs {
		data, err := pipeline.Encode(tc, format, "")
		if err != nil {
			return tool.InputError(err)
		}
		path := filepath.Join(out, tc.Name+ext)
		if err := notAnInput(path, args); err != nil {
			return tool.InputError(err)
		}
		if err := tool.WriteOutput(c.App.Writer, path, data); err != nil {
			return err
		}
	}
	return nil
}
