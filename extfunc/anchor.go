package extfunc

import (
	"path/filepath"

	"github.com/stg-tool/stg/spec"
)

// AnchorImpls makes the impl: commands of the model tc (a test case
// about to be written) run where they run for the model that declares
// them, wherever tc is written: each function with an impl: gets dir:,
// the directory its command runs in (the declaring file's directory, or
// its dir: relative to it), relative to outDir, the directory tc is
// written to, or absolute when outDir is "" (stdout: the reader's
// directory is unknown). The functions are copied, never changed in
// place.
func AnchorImpls(tc *spec.Model, outDir string) error {
	for i, f := range tc.Funcs {
		if f.Impl == "" {
			continue
		}
		run := f.ImplDir
		if !filepath.IsAbs(run) {
			run = filepath.Join(filepath.Dir(f.ImplPos.File), run)
		}
		run, err := filepath.Abs(run)
		if err != nil {
			return err
		}
		if outDir != "" {
			abs, err := filepath.Abs(outDir)
			if err != nil {
				return err
			}
			if rel, err := filepath.Rel(abs, run); err == nil {
				run = rel
			}
		}
		g := *f
		g.ImplDir = run
		if run == "." {
			g.ImplDir = ""
		}
		tc.Funcs[i] = &g
	}
	return nil
}
