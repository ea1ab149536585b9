package extfunc

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

// DefaultTimeout bounds one call of an implementation when
// Options.Timeout is 0.
const DefaultTimeout = 5 * time.Second

// GoFunc is a reference implementation written in Go: it gets the
// flattened arguments (the cells of an array parameter in order) and
// returns the result, of the function's result type.
type GoFunc func(args []expr.Value) (expr.Value, error)

// Options configure a Registry.
type Options struct {
	// Timeout bounds one call of a command (0: DefaultTimeout).
	Timeout time.Duration
	// Dir is the working directory of the commands the functions'
	// impl: name ("": the tester's): the directory of the model file
	// that declares them. A function's dir: (expr.Func.ImplDir) is
	// relative to it unless absolute. SetCommand's run in the tester's.
	Dir string
	// Stderr receives the commands' standard error (nil: discarded; its
	// last lines are kept for the errors).
	Stderr io.Writer
}

// A Registry evaluates the external functions of one model. It is safe
// for concurrent use; calls of one command are serialized.
type Registry struct {
	opts Options

	mu     sync.Mutex
	funcs  map[string]*expr.Func
	tables map[string]map[string]expr.Value // name -> args key -> result
	order  map[string][][]expr.Value        // name -> the rows' arguments, in order
	impls  map[string]*impl
	memo   map[string]expr.Value // name+args key -> result of an implementation
}

// impl is an implementation: a Go function or a command.
type impl struct {
	fn  GoFunc
	cmd *command
}

// New returns a Registry for the external functions funcs (defined
// functions are ignored), with their tables and their impl: commands.
// Tables are checked: a row of the wrong arity or type, or two rows with
// the same inputs and different results, is an error.
func New(funcs []*expr.Func, opts Options) (*Registry, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	r := &Registry{opts: opts, funcs: map[string]*expr.Func{}, tables: map[string]map[string]expr.Value{}, order: map[string][][]expr.Value{},
		impls: map[string]*impl{}, memo: map[string]expr.Value{}}
	for _, f := range funcs {
		if !f.IsExternal() {
			continue
		}
		r.funcs[f.Name] = f
		if err := r.setTable(f, f.Table); err != nil {
			return nil, err
		}
		if f.Impl != "" {
			dir := opts.Dir
			if f.ImplDir != "" {
				dir = filepath.Join(opts.Dir, f.ImplDir)
				if filepath.IsAbs(f.ImplDir) {
					dir = f.ImplDir
				}
			}
			if err := r.setCommand(f, f.Impl, dir); err != nil {
				return nil, fmt.Errorf("%s: %v", f.ImplPos, err)
			}
		}
	}
	return r, nil
}

// Func returns the external function name, if r knows it.
func (r *Registry) Func(name string) (*expr.Func, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.funcs[name]
	return f, ok
}

func (r *Registry) lookup(name string) (*expr.Func, error) {
	f, ok := r.funcs[name]
	if !ok {
		return nil, fmt.Errorf("no external function %s", name)
	}
	return f, nil
}

// Register makes fn the implementation of the function name, replacing
// its command if it had one.
func (r *Registry) Register(name string, fn GoFunc) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := r.lookup(name)
	if err != nil {
		return err
	}
	r.replace(f.Name, &impl{fn: fn})
	return nil
}

// SetCommand makes the command line cmdline (split like a simple shell,
// adapter.SplitCommand), run in the tester's working directory, the
// implementation of the function name, replacing its previous
// implementation.
func (r *Registry) SetCommand(name, cmdline string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := r.lookup(name)
	if err != nil {
		return err
	}
	return r.setCommand(f, cmdline, "")
}

func (r *Registry) setCommand(f *expr.Func, cmdline, dir string) error {
	opts := r.opts
	opts.Dir = dir
	c, err := newCommand(f, cmdline, opts)
	if err != nil {
		return err
	}
	r.replace(f.Name, &impl{cmd: c})
	return nil
}

// replace installs im for f, closing a command it replaces, and forgets
// the results of the previous implementation.
func (r *Registry) replace(name string, im *impl) {
	if old := r.impls[name]; old != nil && old.cmd != nil {
		old.cmd.close()
	}
	r.impls[name] = im
	for k := range r.memo {
		if strings.HasPrefix(k, name+"\x00") {
			delete(r.memo, k)
		}
	}
}

// SetTable replaces the table of the function name (a tables file given
// on the command line).
func (r *Registry) SetTable(name string, rows []expr.TableRow) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := r.lookup(name)
	if err != nil {
		return err
	}
	return r.setTable(f, rows)
}

func (r *Registry) setTable(f *expr.Func, rows []expr.TableRow) error {
	t := make(map[string]expr.Value, len(rows))
	var order [][]expr.Value
	for _, row := range rows {
		if err := checkArgs(f, row.Args); err != nil {
			return fmt.Errorf("%s: table row of %s: %v", row.Pos, f.Name, err)
		}
		if row.Result.T != f.Result {
			return fmt.Errorf("%s: table row of %s: result %s has type %s, want %s", row.Pos, f.Name, row.Result, row.Result.T, f.Result)
		}
		k := key(row.Args)
		if old, dup := t[k]; dup && !old.Equal(row.Result) {
			return fmt.Errorf("%s: table of %s: %s gives both %s and %s", row.Pos, f.Name, Describe(f, row.Args), old, row.Result)
		}
		if _, dup := t[k]; !dup {
			order = append(order, row.Args)
		}
		t[k] = row.Result
	}
	r.tables[f.Name], r.order[f.Name] = t, order
	return nil
}

// Close kills the commands still running. The Registry can still answer
// from its tables and Go functions; a command is started again when it is
// needed.
func (r *Registry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, im := range r.impls {
		if im != nil && im.cmd != nil {
			im.cmd.close()
		}
	}
	return nil
}

// checkArgs checks the arity and the types of flattened arguments.
func checkArgs(f *expr.Func, args []expr.Value) error {
	if len(args) != len(f.Params) {
		return fmt.Errorf("%d arguments, want %d", len(args), len(f.Params))
	}
	for i, a := range args {
		if a.T != f.Params[i] {
			return fmt.Errorf("argument %d is %s of type %s, want %s", i+1, a, a.T, f.Params[i])
		}
	}
	return nil
}

// key identifies flattened arguments.
func key(args []expr.Value) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(a.String())
	}
	return b.String()
}
