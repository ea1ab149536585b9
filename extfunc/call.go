package extfunc

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
)

// A CallError is a call that could not be evaluated: no row and no
// implementation, or an implementation that failed. It names the
// function and the inputs.
type CallError struct {
	Call string // "INTGR([123, 96])"
	Msg  string // "implementation timed out after 5s"
	// Stderr holds the last lines the command wrote on its standard
	// error, when it crashed or hung.
	Stderr []string
}

func (e *CallError) Error() string {
	s := e.Call + ": " + e.Msg
	if len(e.Stderr) > 0 {
		s += "; its last lines on stderr:\n\t" + strings.Join(e.Stderr, "\n\t")
	}
	return s
}

// ErrNoImplementation is wrapped by the error of a call whose inputs are
// in no table row of a function without implementation.
var ErrNoImplementation = errors.New("no table row and no implementation")

// Exec returns f(args...) with args flattened: from f's table when a row
// has these inputs, else from its implementation. It has the type of the
// exec hook of SolveTab (package summary).
func (r *Registry) Exec(f *expr.Func, args []expr.Value) (expr.Value, error) {
	return r.Call(f.Name, args)
}

// Call implements expr.Caller: it returns name(args...), args flattened.
func (r *Registry) Call(name string, args []expr.Value) (expr.Value, error) {
	r.mu.Lock()
	f, err := r.lookup(name)
	if err != nil {
		r.mu.Unlock()
		return expr.Value{}, err
	}
	if err := checkArgs(f, args); err != nil {
		r.mu.Unlock()
		return expr.Value{}, &CallError{Call: Describe(f, args), Msg: err.Error()}
	}
	k := key(args)
	if v, ok := r.tables[name][k]; ok {
		r.mu.Unlock()
		return v, nil
	}
	if v, ok := r.memo[name+"\x00"+k]; ok {
		r.mu.Unlock()
		return v, nil
	}
	im := r.impls[name]
	r.mu.Unlock()
	v, err := im.call(f, args)
	if err != nil {
		return expr.Value{}, err
	}
	r.mu.Lock()
	if cur := r.impls[name]; cur == im {
		r.memo[name+"\x00"+k] = v
	}
	r.mu.Unlock()
	return v, nil
}

// call runs the implementation and checks its result's type.
func (im *impl) call(f *expr.Func, args []expr.Value) (expr.Value, error) {
	var v expr.Value
	var err error
	switch {
	case im == nil:
		return expr.Value{}, &CallError{Call: Describe(f, args), Msg: ErrNoImplementation.Error()}
	case im.fn != nil:
		v, err = safeCall(im.fn, args)
	default:
		return im.cmd.call(args)
	}
	if err != nil {
		return expr.Value{}, &CallError{Call: Describe(f, args), Msg: err.Error()}
	}
	if v.T != f.Result {
		return expr.Value{}, &CallError{Call: Describe(f, args), Msg: fmt.Sprintf("ill-typed result %s of type %s, want %s", v, v.T, f.Result)}
	}
	return v, nil
}

// safeCall calls fn, turning a panic into an error.
func safeCall(fn GoFunc, args []expr.Value) (v expr.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("implementation panicked: %v", p)
		}
	}()
	return fn(args)
}

// Is lets errors.Is(err, ErrNoImplementation) (or the
// summary.ErrNoImplementation SolveTab looks for) find a call without
// implementation.
func (e *CallError) Is(target error) bool {
	return (target == ErrNoImplementation || target == summary.ErrNoImplementation) && e.Msg == ErrNoImplementation.Error()
}

// Describe prints the call f(args...), the cells of an array parameter
// in brackets: "INTGR([123, 96])".
func Describe(f *expr.Func, args []expr.Value) string {
	var parts []string
	k := 0
	for _, n := range paramLens(f) {
		if n == 0 {
			if k < len(args) {
				parts = append(parts, args[k].String())
			}
			k++
			continue
		}
		var cells []string
		for i := 0; i < n && k < len(args); i++ {
			cells = append(cells, args[k].String())
			k++
		}
		parts = append(parts, "["+strings.Join(cells, ", ")+"]")
	}
	for ; k < len(args); k++ {
		parts = append(parts, args[k].String())
	}
	return f.Name + "(" + strings.Join(parts, ", ") + ")"
}

// paramLens returns the length of each declared parameter (0: a scalar).
func paramLens(f *expr.Func) []int {
	if f.ParamLens != nil {
		return f.ParamLens
	}
	return make([]int, len(f.Params))
}

// Env returns an environment that reads v and evaluates calls with r.
func (r *Registry) Env(v expr.Valuation) expr.Env { return env{v, r} }

type env struct {
	expr.Valuation
	r *Registry
}

func (e env) Call(f string, args []expr.Value) (expr.Value, error) { return e.r.Call(f, args) }
