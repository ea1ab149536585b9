package tool

import (
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// FuncOptions say how stg run and stg verdict evaluate the external
// functions a model calls: the rows of the model's tables (or of the
// tables file Tables, which replaces them) first, then the model's impl:
// commands, run in the model file's directory, or the commands of Impl
// (NAME=COMMAND, run in the current directory), each call bounded by
// CallTimeout, which must be positive (stg's default is
// extfunc.DefaultTimeout; a zero CallTimeout is refused as --call-timeout
// 0 is).
type FuncOptions struct {
	Impl        []string
	Tables      string
	CallTimeout time.Duration
}

// registry returns the evaluator of the external functions of m, for the
// command cmd ("stg run"), warning on stderr.
func (o FuncOptions) registry(cmd string, m *spec.Model, stderr io.Writer) (*extfunc.Registry, error) {
	if o.CallTimeout <= 0 {
		return nil, UsageError(cmd, "--call-timeout must be positive")
	}
	if o.Tables != "" {
		for _, f := range m.Funcs {
			f.Table = nil
		}
		if err := specfile.LoadTables(o.Tables, m); err != nil {
			return nil, InputError(err)
		}
	}
	dir := ""
	if m.File != "" {
		dir = filepath.Dir(m.File)
	}
	r, err := extfunc.New(m.Funcs, extfunc.Options{Timeout: o.CallTimeout, Dir: dir, Stderr: stderr})
	if err != nil {
		return nil, InputError(err)
	}
	for _, kv := range o.Impl {
		name, command, ok := strings.Cut(kv, "=")
		if !ok || name == "" || strings.TrimSpace(command) == "" {
			r.Close()
			return nil, UsageError(cmd, "--impl %q: want NAME=COMMAND", kv)
		}
		if err := r.SetCommand(name, command); err != nil {
			r.Close()
			return nil, UsageError(cmd, "--impl %s: %v", name, err)
		}
	}
	return r, nil
}
