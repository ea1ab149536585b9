package summary

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stg-tool/stg/spec/expr"
)

// A Call is a call record cl = (p, (t1..tn), x) (§3.2): the external
// function p applied to the flattened terms Args, whose result is the
// fresh variable X.
type Call struct {
	Func *expr.Func
	Args []expr.Expr // without calls of external functions
	X    *expr.Ident
}

// String prints the record as "INTGR#1 = INTGR(v@1, v@2)".
func (cl *Call) String() string {
	args := make([]string, len(cl.Args))
	for i, a := range cl.Args {
		args[i] = expr.Format(a)
	}
	return cl.X.Name + " = " + cl.Func.Name + "(" + strings.Join(args, ", ") + ")"
}

// A Flattener is the flattening χ of one symbolic execution: it owns the
// counters of the fresh variables, so that every call occurrence it
// flattens gets a variable no other occurrence has.
type Flattener struct {
	funcs map[string]*expr.Func
	fresh map[string]int
}

// NewFlattener returns the flattening of calls of the external functions
// among funcs.
func NewFlattener(funcs []*expr.Func) *Flattener {
	fl := &Flattener{funcs: map[string]*expr.Func{}, fresh: map[string]int{}}
	for _, f := range funcs {
		if f.IsExternal() {
			fl.funcs[f.Name] = f
		}
	}
	return fl
}

// IsFresh reports whether id is a variable made by a Flattener.
func IsFresh(id *expr.Ident) bool { return strings.Contains(id.Name, "#") }

// Flatten returns χ(e): e with every call of an external function
// replaced by a fresh variable (χ(e)|1), and the records of the calls,
// innermost first (χ(e)|2). A call of a function the Flattener does not
// know is an error.
func (fl *Flattener) Flatten(e expr.Expr) (expr.Expr, []*Call, error) {
	var calls []*Call
	r, err := fl.flatten(e, &calls)
	return r, calls, err
}

func (fl *Flattener) flatten(e expr.Expr, calls *[]*Call) (expr.Expr, error) {
	switch e := e.(type) {
	case *expr.IntLit, *expr.RealLit, *expr.BoolLit, *expr.EnumLit, *expr.StrLit, *expr.Ident:
		return e, nil
	case *expr.StrCall:
		return fl.flattenStr(e, calls)
	case *expr.Unary:
		x, err := fl.flatten(e.X, calls)
		if err != nil || x == e.X {
			return e, err
		}
		return &expr.Unary{Op: e.Op, X: x, At: e.At}, nil
	case *expr.Binary:
		x, err := fl.flatten(e.X, calls)
		if err != nil {
			return e, err
		}
		y, err := fl.flatten(e.Y, calls)
		if err != nil || x == e.X && y == e.Y {
			return e, err
		}
		return &expr.Binary{Op: e.Op, X: x, Y: y, At: e.At}, nil
	case *expr.Cond:
		c, err := fl.flatten(e.If, calls)
		if err != nil {
			return e, err
		}
		x, err := fl.flatten(e.Then, calls)
		if err != nil {
			return e, err
		}
		y, err := fl.flatten(e.Else, calls)
		if err != nil || c == e.If && x == e.Then && y == e.Else {
			return e, err
		}
		return &expr.Cond{If: c, Then: x, Else: y, At: e.At}, nil
	case *expr.Call:
		f := fl.funcs[e.Func]
		if f == nil {
			return e, fmt.Errorf("%s: call of %s, which is not an external function", e.At, e.Func)
		}
		args := make([]expr.Expr, len(e.Args))
		for i, a := range e.Args {
			r, err := fl.flatten(a, calls)
			if err != nil {
				return e, err
			}
			args[i] = r
		}
		fl.fresh[f.Name]++
		x := &expr.Ident{Name: f.Name + "#" + strconv.Itoa(fl.fresh[f.Name]), Kind: expr.VarIdent, T: f.Result}
		*calls = append(*calls, &Call{Func: f, Args: args, X: x})
		return x, nil
	}
	return e, fmt.Errorf("summary: cannot flatten %s (%T)", expr.Format(e), e)
}

// flattenStr flattens the arguments of a string built-in (a built-in
// is interpreted by the solver, not an external function: no record).
func (fl *Flattener) flattenStr(e *expr.StrCall, calls *[]*Call) (expr.Expr, error) {
	args := make([]expr.Expr, len(e.Args))
	same := true
	for i, a := range e.Args {
		r, err := fl.flatten(a, calls)
		if err != nil {
			return e, err
		}
		args[i] = r
		same = same && r == a
	}
	if same {
		return e, nil
	}
	return &expr.StrCall{Fn: e.Fn, Args: args, Pattern: e.Pattern, Re: e.Re, At: e.At}, nil
}
