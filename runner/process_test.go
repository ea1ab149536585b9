package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/stg-tool/stg/adapter"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stg-tool/stg/spec"
)

// cmpSUTSource is a SUT process for the cmp spec, speaking JSON Lines.
// Its argument selects a mutant: "wrong" emits ok(y-x+1), "silent" emits
// nothing.
const cmpSUTSource = `package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
)

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	in := bufio.NewScanner(os.Stdin)
	var x *big.Int
	for in.Scan() {
		var m struct {
			Action string
			Args   map[string]json.Number
		}
		d := json.NewDecoder(bytes.NewReader(in.Bytes()))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			fmt.Fprintln(os.Stderr, "sut:", err)
			os.Exit(2)
		}
		p, ok := new(big.Int).SetString(string(m.Args["p"]), 10)
		if m.Action != "in" || !ok {
			fmt.Fprintln(os.Stderr, "sut: bad input", in.Text())
			os.Exit(2)
		}
		if x == nil {
			x = p
			continue
		}
		diff := new(big.Int).Sub(p, x)
		x = nil
		switch mode {
		case "wrong":
			diff.Add(diff, big.NewInt(1))
		case "silent":
			continue
		}
		act := "nok"
		if diff.Cmp(big.NewInt(2)) >= 0 {
			act = "ok"
		}
		fmt.Printf("{\"action\":%q,\"args\":{\"p\":%s}}\n{\"action\":\"end\"}\n", act, diff)
	}
}
`

var (
	buildOnce sync.Once
	builtSUT  string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// cmpSUTBinary builds cmpSUTSource once per test binary.
func cmpSUTBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "stg-runner-sut")
		if buildErr != nil {
			return
		}
		src := filepath.Join(buildDir, "main.go")
		if buildErr = os.WriteFile(src, []byte(cmpSUTSource), 0o644); buildErr != nil {
			return
		}
		builtSUT = filepath.Join(buildDir, "cmpsut")
		cmd := exec.Command("go", "build", "-o", builtSUT, src)
		cmd.Dir = buildDir
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building the SUT: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtSUT
}

// runProcess plays one run of r against argv and returns the result, the
// error and the SUT's stderr; the run must end within limit.
func runProcess(t *testing.T, r *Runner, argv []string, seed int64, limit time.Duration) (*Result, error, string) {
	t.Helper()
	var stderr syncBuffer
	begin := time.Now()
	res, err := RunOnce(context.Background(), r, adapter.Command(argv, &stderr), seed)
	if d := time.Since(begin); d > limit {
		t.Errorf("%v: the run took %v", argv, d)
	}
	return res, err, stderr.String()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestProcessCmp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a SUT program")
	}
	sut := cmpSUTBinary(t)
	r := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth, Quiescence: 100 * time.Millisecond, Timeout: 10 * time.Second})
	for _, tt := range []struct {
		mutant string
		want   Verdict
		reason string
	}{
		{"", Pass, "on output ok(p=2)"},
		{"wrong", Fail, "on output ok(p=3)"},
		{"silent", Fail, "on quiescence"},
	} {
		for seed := int64(0); seed < 3; seed++ {
			res, err, _ := runProcess(t, r, []string{sut, tt.mutant}, seed, 5*time.Second)
			if err != nil {
				t.Fatalf("mutant %q: %v", tt.mutant, err)
			}
			if res.Verdict != tt.want || !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("mutant %q seed %d: %s (%s), want %s %s\n%s", tt.mutant, seed, res.Verdict, res.Reason, tt.want, tt.reason, res.TraceString())
			}
		}
	}
}

// pump is a test case that sends for ever: Pass is out of reach.
const pump = `
kind: testcase
name: pump
variables: {}
actions:
  tick:  {dir: send, params: {p: int}}
  out:   {dir: receive}
  delta: {dir: receive}
initial: {location: A}
verdicts: {pass: [Pass], fail: [Fail]}
transitions:
  - {from: A, action: tick, to: A}
  - {from: A, action: out, to: Fail}
  - {from: A, action: delta, to: A}
  - {from: B, action: out, to: Pass}
  - {from: B, action: delta, to: B}
`

func TestProcessFaults(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	cmp := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth, Quiescence: 100 * time.Millisecond, Timeout: 5 * time.Second})
	m, err := spec.ParseModel("pump.yaml", []byte(pump), nil)
	if err != nil {
		t.Fatal(err)
	}
	pumpRunner, err := New(m, Options{Quiescence: 50 * time.Millisecond, Timeout: 2 * time.Second, MaxSteps: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer pumpRunner.Close()

	for _, tt := range []struct {
		name   string
		r      *Runner
		script string
		// what may happen: a verdict with a reason, or an error
		verdict Verdict
		reason  string
		errText string
	}{
		{name: "invalid JSON", r: cmp, script: `echo 'not json'; cat >/dev/null`, verdict: Fail, reason: "not a JSON object"},
		{name: "not an object", r: cmp, script: `echo '[1,2]'; cat >/dev/null`, verdict: Fail, reason: "not a JSON object"},
		{name: "no action", r: cmp, script: `echo '{"args":{}}'; cat >/dev/null`, verdict: Fail, reason: `no "action"`},
		{name: "unknown action", r: cmp, script: `echo '{"action":"boom"}'; cat >/dev/null`, verdict: Fail, reason: `unknown action "boom"`},
		{name: "ill-typed", r: cmp, script: `echo '{"action":"ok","args":{"p":1.5}}'; cat >/dev/null`, verdict: Fail, reason: "ill-typed"},
		{name: "huge number", r: cmp, script: `echo '{"action":"ok","args":{"p":123456789012345678901234567890}}'; cat >/dev/null`,
			verdict: Fail, reason: "ok(p=123456789012345678901234567890)"},
		{name: "huge exponent", r: cmp, script: `echo '{"action":"ok","args":{"p":1e999999999}}'; cat >/dev/null`, verdict: Fail, reason: "ill-typed"},
		{name: "line too long", r: cmp, script: `head -c 2000000 /dev/zero | tr '\0' a; cat >/dev/null`, verdict: Fail, reason: "too long"},
		{name: "flood", r: cmp, script: `yes '{"action":"end"}'`, verdict: Fail, reason: "on output end"},
		{name: "flood of garbage", r: cmp, script: `yes garbage`, verdict: Fail, reason: "not a JSON object"},
		{name: "hang", r: cmp, script: `sleep 30`, verdict: Fail, reason: "on quiescence"},
		{name: "stdin closed", r: pumpRunner, script: `exec 0<&-; sleep 30`, errText: "cannot send tick"},
		{name: "never reads", r: pumpRunner, script: `sleep 30`, verdict: Inconc, reason: "does not read its input"},
		{name: "crash", r: pumpRunner, script: `read line; echo dying >&2; exit 3`, errText: "exit status 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err, stderr := runProcess(t, tt.r, []string{"sh", "-c", tt.script}, 1, 4*time.Second)
			if tt.errText != "" {
				if err == nil || !errors.Is(err, adapter.ErrSUTUnavailable) || !strings.Contains(err.Error(), tt.errText) {
					t.Errorf("got %v, %v, want an error %q", err, res.Verdict, tt.errText)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v (stderr %q)", err, stderr)
			}
			if res.Verdict != tt.verdict || !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("%s (%s), want %s with %q\n%s", res.Verdict, res.Reason, tt.verdict, tt.reason, res.TraceString())
			}
		})
	}
}

// TestProcessCrashMidRun: a SUT that dies while the test case waits is
// quiescent; the verdict follows the test case.
func TestProcessCrashMidRun(t *testing.T) {
	r := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth, Quiescence: 2 * time.Second, Timeout: 5 * time.Second})
	res, err, stderr := runProcess(t, r, []string{"sh", "-c", `read a; read b; echo bye >&2; exit 1`}, 1, 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Fail || !strings.Contains(res.Reason, "on quiescence") {
		t.Errorf("%s (%s)", res.Verdict, res.Reason)
	}
	if stderr != "bye\n" {
		t.Errorf("the SUT's stderr: %q", stderr)
	}
	if res.Elapsed > time.Second {
		t.Errorf("quiescence after the SUT's exit took %v; its end of output is quiescence at once", res.Elapsed)
	}
}

func TestProcessCannotStart(t *testing.T) {
	_, err := adapter.StartProcess([]string{filepath.Join(t.TempDir(), "no-such-sut")}, nil)
	if !errors.Is(err, adapter.ErrSUTUnavailable) || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("got %v", err)
	}
	if _, err := adapter.StartProcess(nil, nil); !errors.Is(err, adapter.ErrSUTUnavailable) {
		t.Errorf("no command: got %v", err)
	}
}

// TestProcessKillsGroup checks that Close kills the SUT's children too.
func TestProcessKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	p, err := adapter.StartProcess([]string{"sh", "-c", "sleep 60 & echo $! > " + pidFile + "; wait"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for i := 0; i < 100; i++ {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			fmt.Sscan(string(b), &pid)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	begin := time.Now()
	p.Close()
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	if pid == 0 {
		t.Fatal("the child's pid was not written")
	}
	// SIGKILL takes effect when the child next runs: allow for a loaded
	// machine. A zombie is dead.
	for i := 0; ; i++ {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(b), ") Z") {
			break
		}
		if i == 200 {
			t.Fatalf("the SUT's child %d survived Close: %s", pid, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTCP plays cmp against a SUT behind a TCP listener.
func TestTCP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveCmp(conn)
		}
	}()
	r := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth, Quiescence: 100 * time.Millisecond, Timeout: 5 * time.Second})
	for seed := int64(0); seed < 3; seed++ {
		res, err := RunOnce(context.Background(), r, adapter.TCPAddr("tcp://"+ln.Addr().String()), seed)
		if err != nil || res.Verdict != Pass {
			t.Fatalf("seed %d: %v %v", seed, err, res)
		}
	}
	// Nobody listening: an error.
	addr := ln.Addr().String()
	ln.Close()
	if _, err := RunOnce(context.Background(), r, adapter.TCPAddr(addr), 0); !errors.Is(err, adapter.ErrSUTUnavailable) {
		t.Errorf("closed port: %v", err)
	}
}

// serveCmp is the correct cmp SUT over a connection.
func serveCmp(conn net.Conn) {
	defer conn.Close()
	sut := &cmpSUT{}
	sc := bufio.NewScanner(conn)
	for sc.Scan() {
		var m struct {
			Action string
			Args   map[string]json.Number
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			return
		}
		p, _ := new(big.Int).SetString(string(m.Args["p"]), 10)
		outs, err := sut.Input(m.Action, map[string]spec.Value{"p": spec.IntValue(p)})
		if err != nil {
			return
		}
		for _, o := range outs {
			b, _ := json.Marshal(map[string]any{"action": o.Action, "args": o.Args})
			conn.Write(append(b, '\n'))
		}
	}
}
