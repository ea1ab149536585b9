package extfunc

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

func ival(n int64) expr.Value { return expr.IntValue(big.NewInt(n)) }

func rval(a, b int64) expr.Value { return expr.RatValue(big.NewRat(a, b)) }

// intgr is INTGR: [2]int -> int, with Table 1's rows.
func intgr() *expr.Func {
	return &expr.Func{Name: "INTGR", Params: []expr.Type{expr.IntType, expr.IntType}, ParamLens: []int{2}, Result: expr.IntType,
		Table: []expr.TableRow{
			{Args: []expr.Value{ival(123), ival(96)}, Result: ival(228)},
			{Args: []expr.Value{ival(148), ival(141)}, Result: ival(300)},
		}}
}

// rise is RISE: int -> real, with Table 1's rows.
func rise() *expr.Func {
	return &expr.Func{Name: "RISE", Params: []expr.Type{expr.IntType}, Result: expr.RealType,
		Table: []expr.TableRow{
			{Args: []expr.Value{ival(202)}, Result: rval(7, 10)},
			{Args: []expr.Value{ival(300)}, Result: rval(242, 100)},
		}}
}

func newRegistry(t *testing.T, opts Options, fs ...*expr.Func) *Registry {
	t.Helper()
	r, err := New(fs, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// script writes a shell script into a temporary directory and returns
// the command line that runs it.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "impl.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return "sh " + p
}

func TestTableLookup(t *testing.T) {
	r := newRegistry(t, Options{}, intgr(), rise())
	for _, c := range []struct {
		f    string
		args []expr.Value
		want expr.Value
	}{
		{"INTGR", []expr.Value{ival(123), ival(96)}, ival(228)},
		{"INTGR", []expr.Value{ival(148), ival(141)}, ival(300)},
		{"RISE", []expr.Value{ival(300)}, rval(121, 50)},
	} {
		got, err := r.Call(c.f, c.args)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("%s%v = %v, %v; want %v", c.f, c.args, got, err, c.want)
		}
	}
	_, err := r.Call("INTGR", []expr.Value{ival(1), ival(2)})
	if !errors.Is(err, ErrNoImplementation) || !strings.Contains(err.Error(), "INTGR([1, 2])") {
		t.Errorf("call outside the table without implementation: %v", err)
	}
	if _, err := r.Call("RISE", []expr.Value{ival(1), ival(2)}); err == nil || !strings.Contains(err.Error(), "2 arguments, want 1") {
		t.Errorf("wrong arity: %v", err)
	}
	if _, err := r.Call("RISE", []expr.Value{rval(1, 2)}); err == nil || !strings.Contains(err.Error(), "want int") {
		t.Errorf("wrong type: %v", err)
	}
	if _, err := r.Call("NOPE", nil); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("unknown function: %v", err)
	}
}

func TestTableConflict(t *testing.T) {
	f := rise()
	f.Table = append(f.Table, expr.TableRow{Args: []expr.Value{ival(300)}, Result: rval(1, 1)})
	if _, err := New([]*expr.Func{f}, Options{}); err == nil || !strings.Contains(err.Error(), "RISE(300) gives both") {
		t.Errorf("conflicting rows: %v", err)
	}
	r := newRegistry(t, Options{}, rise())
	if err := r.SetTable("RISE", []expr.TableRow{{Args: []expr.Value{ival(1)}, Result: ival(1)}}); err == nil {
		t.Error("an int result for a real function was accepted")
	}
}

func TestGoFunc(t *testing.T) {
	r := newRegistry(t, Options{}, intgr(), rise())
	calls := 0
	sum := func(args []expr.Value) (expr.Value, error) {
		calls++
		return expr.IntValue(new(big.Int).Add(args[0].Int, args[1].Int)), nil
	}
	if err := r.Register("INTGR", sum); err != nil {
		t.Fatal(err)
	}
	// The table first: 123 + 96 = 219, but the table says 228.
	for _, c := range []struct{ a, b, want int64 }{{123, 96, 228}, {1, 2, 3}, {1, 2, 3}} {
		got, err := r.Call("INTGR", []expr.Value{ival(c.a), ival(c.b)})
		if err != nil || !got.Equal(ival(c.want)) {
			t.Errorf("INTGR(%d, %d) = %v, %v; want %d", c.a, c.b, got, err, c.want)
		}
	}
	if calls != 1 {
		t.Errorf("the Go function was called %d times, want 1 (table, then one call remembered)", calls)
	}
	r.Register("RISE", func([]expr.Value) (expr.Value, error) { return ival(1), nil })
	if _, err := r.Call("RISE", []expr.Value{ival(5)}); err == nil || !strings.Contains(err.Error(), "RISE(5): ill-typed result 1 of type int, want real") {
		t.Errorf("ill-typed Go result: %v", err)
	}
	r.Register("RISE", func([]expr.Value) (expr.Value, error) { panic("boom") })
	if _, err := r.Call("RISE", []expr.Value{ival(5)}); err == nil || !strings.Contains(err.Error(), "RISE(5): implementation panicked: boom") {
		t.Errorf("panicking Go function: %v", err)
	}
	r.Register("RISE", func([]expr.Value) (expr.Value, error) { return expr.Value{}, errors.New("negative") })
	if _, err := r.Call("RISE", []expr.Value{ival(5)}); err == nil || !strings.Contains(err.Error(), "RISE(5): negative") {
		t.Errorf("failing Go function: %v", err)
	}
}

// pyIntgr is a Python implementation of INTGR that checks the request's
// shape: one argument, an array of two ints.
const pyIntgr = `
import json, sys
for line in sys.stdin:
    req = json.loads(line)
    (a, b), = req["args"]
    print(json.dumps({"result": a + b + (a * b) % 7}), flush=True)
`

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "intgr.py"), []byte(pyIntgr), 0o644); err != nil {
		t.Fatal(err)
	}
	f := intgr()
	f.Impl = "python3 intgr.py" // relative to Options.Dir
	r := newRegistry(t, Options{Dir: dir, Timeout: 30 * time.Second}, f)
	for _, c := range []struct{ a, b, want int64 }{{123, 96, 228}, {10, 20, 30 + 200%7}, {-3, 5, 2 + 6}, {0, 0, 0}} {
		got, err := r.Call("INTGR", []expr.Value{ival(c.a), ival(c.b)})
		if err != nil || !got.Equal(ival(c.want)) {
			t.Errorf("INTGR(%d, %d) = %v, %v; want %d", c.a, c.b, got, err, c.want)
		}
	}
	// Integers of any size.
	big1 := new(big.Int).Lsh(big.NewInt(1), 100)
	got, err := r.Call("INTGR", []expr.Value{expr.IntValue(big1), ival(0)})
	if err != nil || got.Int.Cmp(big1) != 0 {
		t.Errorf("INTGR(2^100, 0) = %v, %v", got, err)
	}
}

func TestCommandReals(t *testing.T) {
	// RISE(I) = I/1000, exactly, as an "N/D" string; the request's real
	// arguments arrive the same way.
	cmd := script(t, `while read -r line; do
  n=$(echo "$line" | sed 's/.*\[\(-*[0-9]*\)\].*/\1/')
  echo "{\"result\":\"$n/1000\"}"
done`)
	f := rise()
	f.Impl = cmd
	r := newRegistry(t, Options{Timeout: 30 * time.Second}, f)
	got, err := r.Call("RISE", []expr.Value{ival(228)})
	if err != nil || !got.Equal(rval(228, 1000)) {
		t.Errorf("RISE(228) = %v, %v; want 57/250", got, err)
	}
}

func TestRequestEncoding(t *testing.T) {
	e := &expr.Enum{Name: "Msg", Values: []string{"ok", "alarm"}}
	f := &expr.Func{Name: "F", Params: []expr.Type{expr.IntType, expr.RealType, expr.RealType, expr.EnumType(e), expr.BoolType},
		ParamLens: []int{0, 2, 0, 0}, Result: expr.IntType}
	got := string(encodeRequest(f, []expr.Value{ival(-5), rval(7, 2), rval(3, 1), expr.EnumValue(e, 1), expr.BoolValue(true)}))
	want := `{"args":[-5,["7/2",3],"alarm",true]}` + "\n"
	if got != want {
		t.Errorf("request %q, want %q", got, want)
	}
}

func TestReplies(t *testing.T) {
	e := &expr.Enum{Name: "Msg", Values: []string{"ok", "alarm"}}
	for _, c := range []struct {
		line string
		t    expr.Type
		want string // the value, or "error: ..." (a substring)
	}{
		{`{"result":228}`, expr.IntType, "228"},
		{` {"result": 123456789012345678901234567890} `, expr.IntType, "123456789012345678901234567890"},
		{`{"result":"7/2"}`, expr.RealType, "3.5"},
		{`{"result":"1/3"}`, expr.RealType, "1/3"},
		{`{"result":0.97}`, expr.RealType, "0.97"},
		{`{"result":3}`, expr.RealType, "3"},
		{`{"result":"alarm"}`, expr.EnumType(e), "alarm"},
		{`{"result":true}`, expr.BoolType, "true"},
		{`{"result":2.5}`, expr.IntType, "error: ill-typed result"},
		{`{"result":"abc"}`, expr.IntType, "error: ill-typed result"},
		{`{"result":"red"}`, expr.EnumType(e), "error: ill-typed result"},
		{`{"result":null}`, expr.IntType, "error: ill-typed result"},
		{`{"result":[1]}`, expr.IntType, "error: ill-typed result"},
		{`{"error":"negative input"}`, expr.IntType, "error: implementation reports an error: negative input"},
		{`{}`, expr.IntType, "error: no result"},
		{`{"value":1}`, expr.IntType, "error: unknown field"},
		{`hello`, expr.IntType, "error: malformed reply"},
		{`{"result":1} {"result":2}`, expr.IntType, "error: more than one"},
		{`[1]`, expr.IntType, "error: malformed reply"},
		{`null`, expr.IntType, "error: malformed reply"},
		{`{"result":1e999999}`, expr.RealType, "error: ill-typed result"},
	} {
		v, err := decodeReply([]byte(c.line), c.t)
		got := v.String()
		if err != nil {
			got = "error: " + err.Error()
		}
		want, isErr := strings.CutPrefix(c.want, "error: ")
		if !strings.Contains(got, want) || (err != nil) != isErr {
			t.Errorf("%s as %s: %s, want %s", c.line, c.t, got, c.want)
		}
	}
}

// TestFailures: a command that crashes, hangs, answers garbage or an
// ill-typed value, or cannot start, gives an error naming the function
// and the inputs, within the per-call timeout: never a hang.
func TestFailures(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"crash", `read -r line; echo "segmentation fault (simulated)" >&2; exit 3`,
			[]string{"INTGR([1, 2]): implementation", "ended: exit status 3", "segmentation fault (simulated)"}},
		{"hang", `echo "thinking..." >&2; read -r line; sleep 600`,
			[]string{"INTGR([1, 2]): implementation timed out after 300ms", "thinking..."}},
		{"hang before reading", `sleep 600`,
			[]string{"INTGR([1, 2]): implementation timed out after 300ms"}},
		{"ill-typed", `while read -r line; do echo '{"result":"abc"}'; done`,
			[]string{`INTGR([1, 2]): ill-typed result: "abc" is not a value of type int`}},
		{"garbage", `while read -r line; do echo 'Traceback (most recent call last):'; done`,
			[]string{"INTGR([1, 2]): malformed reply"}},
		{"closes its output", `exec >&-; sleep 600`,
			[]string{"INTGR([1, 2]): implementation timed out after 300ms"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := intgr()
			f.Impl = script(t, c.body)
			r := newRegistry(t, Options{Timeout: 300 * time.Millisecond}, f)
			start := time.Now()
			for i := range 2 { // the second call starts the command again if it died
				_, err := r.Call("INTGR", []expr.Value{ival(1), ival(2)})
				if err == nil {
					t.Fatalf("call %d: no error", i+1)
				}
				for _, w := range c.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("call %d: error %q does not say %q", i+1, err, w)
					}
				}
			}
			// Bounded: 2 calls of 300 ms plus the 5 s grace for an
			// exit, far from a hang.
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
			// The table still answers.
			if v, err := r.Call("INTGR", []expr.Value{ival(123), ival(96)}); err != nil || !v.Equal(ival(228)) {
				t.Errorf("table after a failure: %v, %v", v, err)
			}
		})
	}
	t.Run("cannot start", func(t *testing.T) {
		f := intgr()
		f.Impl = "/nonexistent/intgr"
		r := newRegistry(t, Options{}, f)
		_, err := r.Call("INTGR", []expr.Value{ival(1), ival(2)})
		if err == nil || !strings.Contains(err.Error(), `INTGR([1, 2]): cannot start the implementation "/nonexistent/intgr"`) {
			t.Errorf("error %v", err)
		}
	})
}

func TestEvalAndFold(t *testing.T) {
	r := newRegistry(t, Options{}, intgr(), rise())
	r.Register("INTGR", func(a []expr.Value) (expr.Value, error) {
		return expr.IntValue(new(big.Int).Add(a[0].Int, a[1].Int)), nil
	})
	scope := &expr.Scope{Vars: map[string]expr.Type{"x": expr.IntType, "v[0]": expr.IntType, "v[1]": expr.IntType},
		Funcs: map[string]*expr.Func{"INTGR": intgr(), "RISE": rise()}}
	parse := func(src string) expr.Expr {
		e, err := expr.Parse(src, expr.Pos{Line: 1, Col: 1}, scope)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	// Example 3's φ0, with x + 1 = 148 and 148 + 0 = 148 ... through the
	// Go function: INTGR([299, 1]) = 300, RISE(300) = 2.42 > 1.
	phi := parse("RISE(INTGR([2]int{x + 1, 1})) > 1")
	ok, err := expr.EvalBool(phi, r.Env(expr.Valuation{Vars: map[string]expr.Value{"x": ival(298)}}))
	if err != nil || !ok {
		t.Errorf("φ0 at x = 298: %v, %v", ok, err)
	}
	_, err = expr.EvalBool(phi, r.Env(expr.Valuation{Vars: map[string]expr.Value{"x": ival(0)}}))
	if err == nil || !strings.Contains(err.Error(), "RISE(2): no table row and no implementation") {
		t.Errorf("φ0 at x = 0: %v", err)
	}
	if _, err := expr.EvalBool(phi, expr.Valuation{Vars: map[string]expr.Value{"x": ival(298)}}); err == nil {
		t.Error("Eval without a Caller evaluated a call")
	}
	// Fold: ground calls go, calls over identifiers stay.
	e := parse("INTGR([2]int{120, 3 + 0}) + INTGR([2]int{x, 1}) > 2 && RISE(300) > 1.0")
	got, err := Fold(e, r)
	if err != nil {
		t.Fatal(err)
	}
	if s := expr.Format(got); s != "123 + INTGR([2]int{x, 1}) > 2 && 2.42 > 1.0" {
		t.Errorf("Fold: %s", s)
	}
	if _, err := Fold(parse("RISE(5) > 0"), r); err == nil || !strings.Contains(err.Error(), "RISE(5)") {
		t.Errorf("Fold of a call without row: %v", err)
	}
}

func TestFoldCond(t *testing.T) {
	r := newRegistry(t, Options{}, rise())
	scope := &expr.Scope{Vars: map[string]expr.Type{"x": expr.IntType}, Funcs: map[string]*expr.Func{"RISE": rise()}}
	e, err := expr.Parse("ite(x > 0, RISE(300), RISE(202)) > 1.0", expr.Pos{Line: 1, Col: 1}, scope)
	if err != nil {
		t.Fatal(err)
	}
	if !HasCall(e) || len(Calls(e)) != 2 {
		t.Fatalf("calls of %s: %v", expr.Format(e), Calls(e))
	}
	got, err := Fold(e, r)
	if err != nil || HasCall(got) {
		t.Fatalf("Fold: %v, %v", expr.Format(got), err)
	}
	ok, err := expr.EvalBool(got, expr.Valuation{Vars: map[string]expr.Value{"x": ival(1)}})
	if err != nil || !ok {
		t.Errorf("%s at x = 1: %v, %v", expr.Format(got), ok, err)
	}
}

// TestFoldShortCircuit: a call that a decided conjunct, disjunct or
// condition makes irrelevant is not made, as Eval would not make it.
func TestFoldShortCircuit(t *testing.T) {
	r := newRegistry(t, Options{}, rise()) // RISE: rows 202 and 300 only
	scope := &expr.Scope{Vars: map[string]expr.Type{"x": expr.IntType}, Funcs: map[string]*expr.Func{"RISE": rise()}}
	for src, want := range map[string]string{
		"150 > 200 && RISE(150) <= 1.0":           "false",
		"150 <= 200 || RISE(150) <= 1.0":          "true",
		"300 > 200 && RISE(300) > 1.0":            "2.42 > 1.0",
		"ite(150 > 200, RISE(150), 0.5) < 1.0":    "0.5 < 1.0",
		"x > 0 && (150 > 200 && RISE(150) > 1.0)": "x > 0 && false",
	} {
		e, err := expr.Parse(src, expr.Pos{Line: 1, Col: 1}, scope)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Fold(e, r)
		if err != nil || expr.Format(got) != want {
			t.Errorf("Fold(%s) = %s, %v; want %s", src, expr.Format(got), err, want)
		}
	}
}

// TestConcurrentCalls: calls from several goroutines share one command,
// one exchange at a time, each getting its own reply.
func TestConcurrentCalls(t *testing.T) {
	f := intgr()
	f.Table = nil
	f.Impl = script(t, `while read -r line; do
  a=$(echo "$line" | sed 's/.*\[\[\(-*[0-9]*\),.*/\1/')
  b=$(echo "$line" | sed 's/.*,\(-*[0-9]*\)\]\].*/\1/')
  echo "{\"result\":$((a * 1000 + b))}"
done`)
	r := newRegistry(t, Options{Timeout: 30 * time.Second}, f)
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 10 {
				got, err := r.Call("INTGR", []expr.Value{ival(int64(g)), ival(int64(i))})
				if err == nil && got.Int.Int64() != int64(g*1000+i) {
					err = errors.New("INTGR([" + ival(int64(g)).String() + ", " + ival(int64(i)).String() + "]) = " + got.String())
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestSumFactsHints: Example 2's Sum for cl1 = (INTGR, [m1, m2], I) with
// Table 1, written over the call itself; the facts; and the hints,
// all calls first, then the innermost.
func TestSumFactsHints(t *testing.T) {
	r := newRegistry(t, Options{}, intgr(), rise())
	scope := &expr.Scope{Vars: map[string]expr.Type{"m1": expr.IntType, "m2": expr.IntType},
		Funcs: map[string]*expr.Func{"INTGR": intgr(), "RISE": rise()}}
	e, err := expr.Parse("RISE(INTGR([2]int{m1, m2})) > 1.0", expr.Pos{Line: 1, Col: 1}, scope)
	if err != nil {
		t.Fatal(err)
	}
	calls := Calls(e)
	if len(calls) != 2 || calls[0].Func != "INTGR" || calls[1].Func != "RISE" {
		t.Fatalf("Calls: %v, want INTGR then RISE (innermost first)", calls)
	}
	for _, c := range []struct{ got, want string }{
		{expr.Format(r.Sum(calls[0])), "m1 == 123 && m2 == 96 && INTGR([2]int{m1, m2}) == 228 || m1 == 148 && m2 == 141 && INTGR([2]int{m1, m2}) == 300"},
		{expr.Format(r.Facts(e)), "INTGR([2]int{123, 96}) == 228 && INTGR([2]int{148, 141}) == 300 && RISE(202) == 0.7 && RISE(300) == 2.42"},
	} {
		if c.got != c.want {
			t.Errorf("got  %s\nwant %s", c.got, c.want)
		}
	}
	hs := r.Hints(e)
	if len(hs) != 2 || expr.Format(hs[1]) != expr.Format(r.Sum(calls[0])) {
		t.Errorf("Hints: %v", hs)
	}
	if hs := r.Hints(calls[0]); len(hs) != 1 {
		t.Errorf("Hints of one call: %v, want its Sum only", hs)
	}
	ground, _ := expr.Parse("RISE(300) > 1.0", expr.Pos{Line: 1, Col: 1}, scope)
	if hs := r.Hints(ground); hs != nil {
		t.Errorf("Hints of a ground call: %v, want none", hs)
	}
}
