package tool

import (
	"io"
	"path/filepath"
	"time"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec"
)

// FuncRegistry returns the evaluator of the external functions of the
// model m under test (stg run, stg verdict): the rows of the tables file
// tables, which replace the model's, or else the model's; then the
// model's impl: commands, run in the model file's directory, each call
// bounded by timeout. Its errors are InputErrors.
func FuncRegistry(m *spec.Model, tables string, timeout time.Duration, stderr io.Writer) (*extfunc.Registry, error) {
	if tables != "" {
		for _, f := range m.Funcs {
			f.Table = nil
		}
		if err := spec.LoadTables(tables, m); err != nil {
			return nil, InputError(err)
		}
	}
	dir := ""
	if m.File != "" {
		dir = filepath.Dir(m.File)
	}
	r, err := extfunc.New(m.Funcs, extfunc.Options{Timeout: timeout, Dir: dir, Stderr: stderr})
	if err != nil {
		return nil, InputError(err)
	}
	return r, nil
}
