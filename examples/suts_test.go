// A sanity test of the example SUTs, independent of stg: it builds every
// program under */sut/*, plays scripted conversations over the JSON Lines
// protocol of FORMAT.md §4, and checks that each correct SUT answers as its
// spec says on every script and each mutant deviates on at least one.
package examples_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	outputTimeout = 2 * time.Second        // longest wait for an expected output
	quietWindow   = 150 * time.Millisecond // silence taken as quiescence
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

func TestSUTs(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the SUTs")
	}
	for ex, scs := range scripts {
		dirs, err := filepath.Glob(filepath.Join(ex, "sut", "*"))
		if err != nil || len(dirs) == 0 {
			t.Fatalf("%s: no SUTs (%v)", ex, err)
		}
		correct, mutants := 0, 0
		for _, dir := range dirs {
			switch name := filepath.Base(dir); {
			case name == "correct":
				correct++
			case strings.HasPrefix(name, "mutant-"):
				mutants++
			default:
				continue
			}
			t.Run(filepath.ToSlash(dir), func(t *testing.T) {
				t.Parallel()
				bin := filepath.Join(t.TempDir(), "sut")
				if out, err := exec.Command(goTool, "build", "-o", bin, "./"+filepath.ToSlash(dir)).CombinedOutput(); err != nil {
					t.Fatalf("build: %v\n%s", err, out)
				}
				var fails []string
				for _, sc := range scs {
					if err := converse(bin, sc); err != nil {
						fails = append(fails, fmt.Sprintf("script %s: %v", sc.name, err))
					}
				}
				if filepath.Base(dir) == "correct" {
					for _, f := range fails {
						t.Error(f)
					}
				} else if len(fails) == 0 {
					t.Errorf("mutant passes every script; none shows its fault")
				} else {
					t.Logf("deviates as expected: %s", strings.Join(fails, "; "))
				}
			})
		}
		if correct != 1 || mutants < 3 {
			t.Errorf("%s: %d correct SUTs and %d mutants, want 1 and at least 3", ex, correct, mutants)
		}
	}
}

// converse plays one script against a fresh SUT process.
func converse(bin string, sc script) (err error) {
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
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
	defer func() {
		stdin.Close()
		// On stdin EOF the SUT must exit: stdout closes, Wait returns.
		exited := false
		deadline := time.After(outputTimeout)
	drain:
		for {
			select {
			case _, ok := <-lines:
				if !ok {
					exited = true
					break drain
				}
			case <-deadline:
				break drain
			}
		}
		if !exited {
			cmd.Process.Kill()
			if err == nil {
				err = fmt.Errorf("the SUT did not exit on stdin EOF")
			}
		}
		cmd.Wait()
	}()
	quiet := func(after string) error {
		select {
		case got, ok := <-lines:
			if !ok {
				return fmt.Errorf("after %s: the SUT exited", after)
			}
			return fmt.Errorf("after %s: got %s, want quiescence", after, got)
		case <-time.After(quietWindow):
			return nil
		}
	}
	for i, st := range sc.steps {
		at := fmt.Sprintf("step %d (%s)", i+1, st.send)
		if _, err := io.WriteString(stdin, st.send+"\n"); err != nil {
			return fmt.Errorf("%s: writing: %v", at, err)
		}
		for _, want := range st.want {
			select {
			case got, ok := <-lines:
				if !ok {
					return fmt.Errorf("%s: the SUT exited, want %s", at, want)
				}
				if !sameJSON(got, want) {
					return fmt.Errorf("%s: got %s, want %s", at, got, want)
				}
			case <-time.After(outputTimeout):
				return fmt.Errorf("%s: quiescence, want %s", at, want)
			}
		}
		if len(st.want) == 0 {
			if err := quiet(at); err != nil {
				return err
			}
		}
	}
	return quiet("the last step")
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
