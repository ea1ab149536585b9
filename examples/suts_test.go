// A sanity test of the example SUTs, independent of the runner: it plays
// scripted conversations against every implementation in process (exact
// quiescence: an input that should cause nothing causes nothing) and
// checks that each correct SUT answers as its spec says on every script
// and each mutant deviates on at least one. It then builds the correct
// programs and plays the same scripts over the JSON Lines protocol of
// docs/reference.md#wire-protocol, and checks that every program under */sut/ runs the fault
// its directory names.
package examples_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples"
	"github.com/stg-tool/stg/examples/internal/jsonl"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// outputTimeout bounds the wait for an expected output of a process; it
// only delays a test that fails. quietWindow is the silence after which a
// correct process is taken to have said everything: a correct SUT never
// says more, so the window cannot make a correct SUT fail.
const (
	outputTimeout = 20 * time.Second
	quietWindow   = 150 * time.Millisecond
)

// step sends one input and expects the outputs want, in order; an empty
// want expects quiescence.
type step struct {
	send string
	want []string
}

type script struct {
	name  string
	steps []step
}

// msg builds a JSON line: msg("in", "p", 5) is {"action":"in","args":{"p":5}}.
// Large integers are given as json.Number.
func msg(action string, kv ...any) string {
	m := map[string]any{"action": action}
	if len(kv) > 0 {
		args := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			args[kv[i].(string)] = kv[i+1]
		}
		m["args"] = args
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func s(send string, want ...string) step { return step{send, want} }

// big returns the integer d followed by z zeros, as a JSON number.
func big(d string, z int) json.Number { return json.Number(d + strings.Repeat("0", z)) }

var scripts = map[string][]script{
	"account": {
		{"funds-then-limit", []step{
			s(msg("deposit", "amount", 6), msg("ack", "balance", 6)),
			s(msg("withdraw", "amount", 7), msg("refuse", "reason", "no_funds")), // beyond the balance
			s(msg("deposit", "amount", 10), msg("ack", "balance", 16)),
			s(msg("withdraw", "amount", 9), msg("pay", "amount", 9)),
			s(msg("withdraw", "amount", 2), msg("refuse", "reason", "no_limit")), // 11 today
			s(msg("newDay")),
			s(msg("withdraw", "amount", 2), msg("pay", "amount", 2)),
			s(msg("deposit", "amount", 1), msg("ack", "balance", 6)),
		}},
	},
	"cmp": {
		{"ok-then-nok", []step{
			s(msg("in", "p", 1)),
			s(msg("in", "p", 3), msg("ok", "p", 2), msg("end")),
			s(msg("in", "p", 5)),
			s(msg("in", "p", 4), msg("nok", "p", -1), msg("end")),
		}},
		{"big", []step{
			s(msg("in", "p", big("1", 30))),
			s(msg("in", "p", big("1", 30)[:30]+"7"), msg("ok", "p", 7), msg("end")),
		}},
	},
	"atm": {
		{"fee-below-1000", []step{
			s(msg("deposit", "amount", 500)),
			s(msg("withdraw", "amount", 300), msg("cash", "amount", 300)),
			s(msg("checkBalance"), msg("balance", "sum", 199)),
			s(msg("withdraw", "amount", 100), msg("cash", "amount", 100)),
			s(msg("withdraw", "amount", 10), msg("noMoney")), // a third withdrawal
			s(msg("checkBalance"), msg("balance", "sum", 98)),
			s(msg("deposit", "amount", 1)),
			s(msg("withdraw", "amount", 99), msg("cash", "amount", 99)),
			s(msg("checkBalance"), msg("balance", "sum", -1)),
		}},
		{"no-fee-from-1000", []step{
			s(msg("deposit", "amount", 1000)),
			s(msg("withdraw", "amount", 100), msg("cash", "amount", 100)),
			s(msg("checkBalance"), msg("balance", "sum", 900)),
		}},
		{"no-money", []step{
			s(msg("withdraw", "amount", 1), msg("noMoney")),
			s(msg("checkBalance"), msg("balance", "sum", 0)),
		}},
		{"big", []step{
			s(msg("deposit", "amount", big("1", 30))),
			s(msg("withdraw", "amount", big("1", 29)), msg("cash", "amount", big("1", 29))),
			s(msg("checkBalance"), msg("balance", "sum", big("9", 29))),
		}},
	},
	"jobs": {
		{"small", []step{
			s(msg("submit", "n", 3), msg("result", "r", 7, "count", 1)),
			s(msg("submit", "n", -1), msg("reject")),
			s(msg("submit", "n", 10), msg("result", "r", 21, "count", 2)),
		}},
		{"parked", []step{
			s(msg("submit", "n", 15)), // parked: quiet until poke
			s(msg("poke"), msg("result", "r", 31, "count", 1)),
			s(msg("submit", "n", 101), msg("reject")),
		}},
	},
	"retry": {
		{"stale-ack", []step{
			s(msg("send", "data", 7), msg("frame", "data", 7, "seq", 0, "attempt", 1)),
			s(msg("ack", "seq", 0), msg("report", "status", "delivered", "attempts", 1)),
			s(msg("send", "data", 8), msg("frame", "data", 8, "seq", 1, "attempt", 1)),
			s(msg("ack", "seq", 0)), // stale: ignored
			s(msg("timeout"), msg("frame", "data", 8, "seq", 1, "attempt", 2)),
			s(msg("ack", "seq", 1), msg("report", "status", "delivered", "attempts", 2)),
		}},
		{"give-up", []step{
			s(msg("send", "data", big("5", 25)), msg("frame", "data", big("5", 25), "seq", 0, "attempt", 1)),
			s(msg("timeout"), msg("frame", "data", big("5", 25), "seq", 0, "attempt", 2)),
			s(msg("timeout"), msg("frame", "data", big("5", 25), "seq", 0, "attempt", 3)),
			s(msg("timeout"), msg("report", "status", "failed", "attempts", 3)),
			s(msg("send", "data", 6), msg("frame", "data", 6, "seq", 1, "attempt", 1)),
			s(msg("ack", "seq", 1), msg("report", "status", "delivered", "attempts", 1)),
		}},
	},
	"vending": {
		{"exact-and-change", []step{
			s(msg("choose", "drink", "tea")),
			s(msg("coin", "value", 20)),
			s(msg("coin", "value", 20), msg("serve", "drink", "tea")),
			s(msg("choose", "drink", "coffee")),
			s(msg("coin", "value", 50)),
			s(msg("coin", "value", 50), msg("serve", "drink", "coffee"), msg("change", "amount", 40)),
		}},
		{"coffee", []step{
			s(msg("choose", "drink", "coffee")),
			s(msg("coin", "value", 10)),
			s(msg("coin", "value", 50), msg("serve", "drink", "coffee")),
		}},
		{"cancel", []step{
			s(msg("choose", "drink", "coffee")),
			s(msg("coin", "value", 20)),
			s(msg("coin", "value", 20)),
			s(msg("cancel"), msg("change", "amount", 40)),
			s(msg("choose", "drink", "tea")),
			s(msg("cancel"), msg("change", "amount", 0)),
		}},
	},
	"buffer": {
		{"fifo", []step{
			s(msg("get"), msg("empty")),
			s(msg("put", "v", 1), msg("stored", "n", 1)),
			s(msg("put", "v", 2), msg("stored", "n", 2)),
			s(msg("status"), msg("level", "l", "partial")),
			s(msg("put", "v", 3), msg("stored", "n", 3)),
			s(msg("status"), msg("level", "l", "filled")),
			s(msg("put", "v", 4), msg("full")),
			s(msg("get"), msg("item", "v", 1)),
			s(msg("get"), msg("item", "v", 2)),
			s(msg("get"), msg("item", "v", 3)),
			s(msg("get"), msg("empty")),
			s(msg("status"), msg("level", "l", "drained")),
		}},
		{"big", []step{
			s(msg("put", "v", big("-4", 40)), msg("stored", "n", 1)),
			s(msg("get"), msg("item", "v", big("-4", 40))),
		}},
	},
}

// TestInProcess plays every script against every implementation of its
// example in process.
func TestInProcess(t *testing.T) {
	models := map[string]*spec.Model{}
	for _, s := range examples.SUTs() {
		t.Run(s.String(), func(t *testing.T) {
			m := models[s.Example]
			if m == nil {
				var err error
				if m, err = specfile.LoadFile(filepath.Join(s.Example, "spec.yaml"), nil); err != nil {
					t.Fatal(err)
				}
				models[s.Example] = m
			}
			scs := scripts[s.Example]
			if len(scs) == 0 {
				t.Fatalf("no scripts for %s", s.Example)
			}
			var fails []string
			for _, sc := range scs {
				if err := playInProcess(m, s.New(), sc); err != nil {
					fails = append(fails, fmt.Sprintf("script %s: %v", sc.name, err))
				}
			}
			judge(t, s.Correct(), fails)
		})
	}
}

// judge reports the deviations fails of a correct SUT as errors, and a
// mutant without any.
func judge(t *testing.T, correct bool, fails []string) {
	t.Helper()
	switch {
	case correct:
		for _, f := range fails {
			t.Error(f)
		}
	case len(fails) == 0:
		t.Errorf("mutant passes every script; none shows its fault")
	default:
		t.Logf("deviates as expected: %s", strings.Join(fails, "; "))
	}
}

// playInProcess plays sc against sut: each step's outputs must be exactly
// the ones wanted.
func playInProcess(m *spec.Model, sut adapter.SUT, sc script) error {
	for i, st := range sc.steps {
		at := fmt.Sprintf("step %d (%s)", i+1, st.send)
		var in jsonl.Message
		d := json.NewDecoder(strings.NewReader(st.send))
		d.UseNumber()
		if err := d.Decode(&in); err != nil {
			return fmt.Errorf("%s: %v", at, err)
		}
		a := m.Action(in.Action)
		if a == nil {
			return fmt.Errorf("%s: no action %s in the spec", at, in.Action)
		}
		args, err := adapter.DecodeArgs(a, in.Args)
		if err != nil {
			return fmt.Errorf("%s: %v", at, err)
		}
		outs, err := sut.Input(in.Action, args)
		if err != nil {
			return fmt.Errorf("%s: %v", at, err)
		}
		var got []string
		for _, o := range outs {
			b, err := json.Marshal(jsonl.Message{Action: o.Action, Args: o.Args})
			if err != nil {
				return fmt.Errorf("%s: %v", at, err)
			}
			got = append(got, string(b))
		}
		if !slices.EqualFunc(got, st.want, sameJSON) {
			return fmt.Errorf("%s: got %v, want %v", at, got, st.want)
		}
	}
	return nil
}

// TestPrograms builds each example's correct program and plays its
// scripts over the wire, and so for the Python implementation of cmp; the
// cmp programs also once after a start-up delay.
func TestPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds and runs processes")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build the SUTs: %v", err)
	}
	for _, s := range examples.SUTs() {
		if !s.Correct() {
			continue
		}
		t.Run(s.String(), func(t *testing.T) {
			t.Parallel()
			bin := filepath.Join(t.TempDir(), "sut")
			build := exec.Command(goTool, "build", "-o", bin, s.Package())
			build.Dir = ".."
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			playPrograms(t, s.Example, []string{bin})
		})
	}
	t.Run("cmp/python", func(t *testing.T) {
		t.Parallel()
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Fatalf("python3 is needed for cmp/sut/python/cmp.py (apt-get install python3): %v", err)
		}
		playPrograms(t, "cmp", []string{py, filepath.Join("cmp", "sut", "python", "cmp.py")})
	})
}

// playPrograms plays the scripts of example against the program argv,
// each with a fresh process, and, for cmp, checks the start-up delay.
func playPrograms(t *testing.T, example string, argv []string) {
	t.Helper()
	for _, sc := range scripts[example] {
		if err := converse(exec.Command(argv[0], argv[1:]...), sc); err != nil {
			t.Errorf("script %s: %v", sc.name, err)
		}
	}
	if example == "cmp" {
		checkDelay(t, argv, scripts["cmp"][0])
	}
}

// checkDelay checks the start-up delay of jsonl.Serve: a good one delays
// the answers at least that long, a bad one ends the program with status 2.
func checkDelay(t *testing.T, argv []string, sc script) {
	const delay = 300 * time.Millisecond
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), jsonl.DelayVariable+"="+delay.String())
	start := time.Now()
	if err := converse(cmd, sc); err != nil {
		t.Errorf("with %s: script %s: %v", cmd.Env[len(cmd.Env)-1], sc.name, err)
	}
	if took := time.Since(start); took < delay {
		t.Errorf("with a start-up delay of %v the conversation took only %v", delay, took)
	}
	cmd = exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), jsonl.DelayVariable+"=soon")
	var exit *exec.ExitError
	if out, err := cmd.CombinedOutput(); !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Errorf("with %s=soon: %v, want exit status 2 (output %q)", jsonl.DelayVariable, err, out)
	}
}

// TestProgramsMatchFaults checks that the programs under */sut/ are the
// implementations that examples.SUTs lists, and that each program's main
// runs the fault its directory names: sut/mutant-no-end runs
// impl.Run(impl.NoEnd).
func TestProgramsMatchFaults(t *testing.T) {
	want := map[string][]string{}
	for _, s := range examples.SUTs() {
		want[s.Example] = append(want[s.Example], s.Name)
	}
	for ex, names := range want {
		dirs, err := filepath.Glob(filepath.Join(ex, "sut", "*", "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, main := range dirs {
			dir := filepath.Base(filepath.Dir(main))
			got = append(got, dir)
			fault, err := runsFault(main)
			if err != nil {
				t.Errorf("%s: %v", main, err)
			} else if name := faultDir(fault); name != dir {
				t.Errorf("%s runs impl.%s, which belongs in sut/%s", main, fault, name)
			}
		}
		slices.Sort(got)
		slices.Sort(names)
		if !slices.Equal(got, names) {
			t.Errorf("%s: programs %v, implementations %v", ex, got, names)
		}
	}
}

// runsFault returns X in the call impl.Run(impl.X) of a program's main.
func runsFault(filename string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), filename, nil, 0)
	if err != nil {
		return "", err
	}
	fault := ""
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isSelector(call.Fun, "impl", "Run") || len(call.Args) != 1 {
			return true
		}
		if sel, ok := call.Args[0].(*ast.SelectorExpr); ok && isSelector(sel, "impl", sel.Sel.Name) {
			fault = sel.Sel.Name
		}
		return false
	})
	if fault == "" {
		return "", fmt.Errorf("no call impl.Run(impl.FAULT)")
	}
	return fault, nil
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == name
}

// faultDir returns the program directory of a fault constant:
// Correct is "correct", NoEnd "mutant-no-end", LIFO "mutant-lifo".
func faultDir(fault string) string {
	var b strings.Builder
	for i, r := range fault {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(fault[i-1])) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	if fault == "Correct" {
		return "correct"
	}
	return "mutant-" + b.String()
}

// converse plays one script against a fresh SUT process started by cmd.
func converse(cmd *exec.Cmd, sc script) (err error) {
	c, err := startConversation(cmd)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := c.close(); err == nil {
			err = cerr
		}
	}()
	for i, st := range sc.steps {
		at := fmt.Sprintf("step %d (%s)", i+1, st.send)
		if _, err := io.WriteString(c.stdin, st.send+"\n"); err != nil {
			return fmt.Errorf("%s: writing: %v", at, err)
		}
		for _, want := range st.want {
			if err := c.expect(at, want); err != nil {
				return err
			}
		}
		if len(st.want) == 0 {
			if err := c.quiet(at); err != nil {
				return err
			}
		}
	}
	return c.quiet("the last step")
}

// conversation is a running SUT process: its stdin, and the lines of its
// stdout.
type conversation struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines <-chan string // closed when stdout ends
}

// startConversation starts cmd and reads its stdout line by line.
func startConversation(cmd *exec.Cmd) (*conversation, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		r := bufio.NewScanner(stdout)
		r.Buffer(make([]byte, 64*1024), 16<<20)
		for r.Scan() {
			lines <- r.Text()
		}
	}()
	return &conversation{cmd, stdin, lines}, nil
}

// expect reads the next output, which must be want, within outputTimeout.
func (c *conversation) expect(at, want string) error {
	select {
	case got, ok := <-c.lines:
		if !ok {
			return fmt.Errorf("%s: the SUT exited, want %s", at, want)
		}
		if !sameJSON(got, want) {
			return fmt.Errorf("%s: got %s, want %s", at, got, want)
		}
		return nil
	case <-time.After(outputTimeout):
		return fmt.Errorf("%s: quiescence, want %s", at, want)
	}
}

// quiet expects no output for quietWindow.
func (c *conversation) quiet(after string) error {
	select {
	case got, ok := <-c.lines:
		if !ok {
			return fmt.Errorf("after %s: the SUT exited", after)
		}
		return fmt.Errorf("after %s: got %s, want quiescence", after, got)
	case <-time.After(quietWindow):
		return nil
	}
}

// close closes the SUT's stdin, on which it must exit (its stdout closes)
// within outputTimeout; it kills a SUT that does not, and says so.
func (c *conversation) close() error {
	c.stdin.Close()
	defer c.cmd.Wait()
	deadline := time.After(outputTimeout)
	for {
		select {
		case _, ok := <-c.lines:
			if !ok {
				return nil
			}
		case <-deadline:
			c.cmd.Process.Kill()
			return fmt.Errorf("the SUT did not exit on stdin EOF")
		}
	}
}

func sameJSON(a, b string) bool {
	decode := func(s string) (any, bool) {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var v any
		return v, d.Decode(&v) == nil
	}
	x, ok1 := decode(a)
	y, ok2 := decode(b)
	return ok1 && ok2 && reflect.DeepEqual(x, y)
}
