package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
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
	// The parallel tests here are the process tests, which spend their
	// time waiting: for a silent or hung SUT, the start-up allowance and
	// the confirmation of quiescence (up to 10 s each), during which
	// neither stg nor the SUT uses the processor. At the default of
	// GOMAXPROCS (2 here) they waited in turn; 8 let them wait together.
	// A -parallel given on the command line is kept.
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", "8")
	}
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

// noHang bounds a run only to catch a hang: no verdict depends on it.
const noHang = 60 * time.Second

// processOptions are generous: a verdict must not depend on the machine's
// load. Confirm and Startup keep their defaults (5s).
var processOptions = Options{Depth: DefaultDepth, Options: play.Options{Timing: adapter.Timing{Quiescence: 2 * time.Second}}}

// runProcess plays one run of r against argv and returns the result, the
// error and the SUT's stderr.
func runProcess(t *testing.T, r *Runner, argv []string, seed int64) (*Result, error, string) {
	t.Helper()
	var stderr syncBuffer
	begin := time.Now()
	res, err := play.RunOnce(context.Background(), r.Engine(), adapter.Command(argv, &stderr), seed)
	if d := time.Since(begin); d > noHang {
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

// TestProcessCmp plays cmp against the SUT program and its mutants. The
// runs are parallel, each with a Runner of its own (a Runner learns
// latencies): the load they add must not change a verdict.
func TestProcessCmp(t *testing.T) {
	t.Parallel() // waits mostly (see TestMain): beside the in-process tests
	sut := cmpSUTBinary(t)
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
			t.Run(fmt.Sprintf("%q/%d", tt.mutant, seed), func(t *testing.T) {
				t.Parallel()
				r := newRunner(t, "cmp.yaml", processOptions)
				res, err, stderr := runProcess(t, r, []string{sut, tt.mutant}, seed)
				if err != nil {
					t.Fatalf("%v (stderr %q)", err, stderr)
				}
				if res.Verdict != tt.want || !strings.Contains(res.Reason, tt.reason) {
					t.Errorf("%s (%s), want %s %s\n%s", res.Verdict, res.Reason, tt.want, tt.reason, res.TraceString())
				}
			})
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

// pumpRunner returns a Runner of pump whose runs end at timeout.
func pumpRunner(t *testing.T, timeout time.Duration) *Runner {
	t.Helper()
	m, err := specfile.ParseModel("pump.yaml", []byte(pump), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(m, Options{Options: play.Options{Timing: adapter.Timing{Quiescence: 2 * time.Second}, Timeout: timeout, MaxSteps: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// TestProcessFaults plays faulty SUT programs. Each fault gives a
// verdict (an unreadable output is Fail) or an error (a SUT that cannot be
// talked to), never a hang.
func TestProcessFaults(t *testing.T) {
	t.Parallel() // waits mostly (see TestMain): beside the in-process tests
	cmp := func(t *testing.T) *Runner { return newRunner(t, "cmp.yaml", processOptions) }
	pumped := func(t *testing.T) *Runner { return pumpRunner(t, noHang) }
	for _, tt := range []struct {
		name   string
		r      func(t *testing.T) *Runner
		script string
		// what must happen: a verdict with a reason, or an error
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
		{name: "bad readiness", r: cmp, script: `echo '{"ready":"yes"}'; cat >/dev/null`, verdict: Fail, reason: "readiness line"},
		{name: "line too long", r: cmp, script: `head -c 2000000 /dev/zero | tr '\0' a; cat >/dev/null`, verdict: Fail, reason: "too long"},
		{name: "flood", r: cmp, script: `yes '{"action":"end"}'`, verdict: Fail, reason: "on output end"},
		{name: "flood of garbage", r: cmp, script: `yes garbage`, verdict: Fail, reason: "not a JSON object"},
		{name: "hang", r: cmp, script: `exec sleep 60`, verdict: Fail, reason: "on quiescence"},
		{name: "ready, then hang", r: cmp, script: `echo '{"ready":true}'; exec sleep 60`, verdict: Fail, reason: "on quiescence"},
		{name: "stdin closed", r: pumped, script: `exec 0<&-; exec sleep 60`, errText: "cannot send tick, the SUT's input is closed"},
		// The run's time limit is the only way out: Inconc, whatever
		// the send it interrupts.
		{name: "never reads", r: func(t *testing.T) *Runner { return pumpRunner(t, 3*time.Second) }, script: `exec sleep 60`,
			verdict: Inconc, reason: "time limit"},
		{name: "crash", r: pumped, script: `read line; echo dying >&2; exit 3`, errText: "the SUT ended: exit status 3; its last lines on stderr:\n    dying"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err, stderr := runProcess(t, tt.r(t), []string{"sh", "-c", tt.script}, 1)
			if tt.errText != "" {
				if err == nil || !errors.Is(err, adapter.ErrSUTUnavailable) || !strings.Contains(err.Error(), tt.errText) {
					t.Errorf("got %v, %v, want an error %q", err, res, tt.errText)
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

// TestProcessEnds: a SUT that ends during a run ends the run with an
// *adapter.ExitError, never with a verdict, whether it dies at once,
// before the tester writes, or later, while the tester waits.
func TestProcessEnds(t *testing.T) {
	t.Parallel() // waits mostly (see TestMain): beside the in-process tests
	for _, tt := range []struct {
		name, script string
		what         string // ExitError.What
		stderr       string // its last line on stderr
	}{
		{"at once", `echo bye >&2; exit 1`, "exit status 1", "bye"},
		{"after a sleep, reading nothing", `sleep 0.5; echo bye >&2; exit 1`, "exit status 1", "bye"},
		{"while the tester waits", `read a; read b; sleep 0.5; echo bye >&2; exit 1`, "exit status 1", "bye"},
		{"killed", `read a; echo bye >&2; kill -9 $$`, "signal: killed", "bye"},
		{"output closed first", `read a; read b; exec 1>&-; sleep 0.5; echo bye >&2; exit 2`, "exit status 2", "bye"},
		{"exit 0", `read a; read b; exit 0`, "exit status 0", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, "cmp.yaml", processOptions)
			res, err, stderr := runProcess(t, r, []string{"sh", "-c", tt.script}, 1)
			var xe *adapter.ExitError
			if !errors.As(err, &xe) {
				t.Fatalf("got %v, %v, want an *ExitError", res, err)
			}
			if res != nil && res.Verdict != 0 {
				t.Errorf("a verdict: %s (%s)", res.Verdict, res.Reason)
			}
			if xe.What != tt.what || tt.stderr != "" && !slices.Equal(xe.Stderr, []string{tt.stderr}) {
				t.Errorf("got %q with stderr %q, want %q with %q", xe.What, xe.Stderr, tt.what, tt.stderr)
			}
			if want := tt.stderr; want != "" && stderr != want+"\n" {
				t.Errorf("the SUT's stderr passed through: %q, want %q", stderr, want+"\n")
			}
		})
	}
}

// TestTCP plays cmp against a SUT behind a TCP listener.
func TestTCP(t *testing.T) {
	addr := listen(t, serveCmp)
	r := newRunner(t, "cmp.yaml", processOptions)
	for seed := int64(0); seed < 3; seed++ {
		res, err := play.RunOnce(context.Background(), r.Engine(), adapter.TCPAddr("tcp://"+addr), seed)
		if err != nil || res.Verdict != Pass {
			t.Fatalf("seed %d: %v %v", seed, err, res)
		}
	}
}

// TestTCPEnds: a SUT that closes or resets the connection during a run
// ends it with an *adapter.ExitError; an address where nobody listens is
// an error too.
func TestTCPEnds(t *testing.T) {
	// hangUp reads the first input, then hangs up.
	hangUp := func(reset bool) func(net.Conn) {
		return func(conn net.Conn) {
			bufio.NewReader(conn).ReadString('\n')
			if reset {
				conn.(*net.TCPConn).SetLinger(0)
			}
			conn.Close()
		}
	}
	for _, tt := range []struct {
		name  string
		serve func(net.Conn)
		what  []string // what ExitError.What may be (a send may see the end first)
	}{
		{"closed", hangUp(false), []string{"connection closed by the SUT"}},
		{"reset", hangUp(true), []string{"connection reset by peer", "connection closed by the SUT"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRunner(t, "cmp.yaml", processOptions)
			res, err := play.RunOnce(context.Background(), r.Engine(), adapter.TCPAddr(listen(t, tt.serve)), 1)
			var xe *adapter.ExitError
			if !errors.As(err, &xe) || !slices.Contains(tt.what, xe.What) {
				t.Fatalf("got %v, %v, want an *ExitError %q", res, err, tt.what)
			}
			if res != nil && res.Verdict != 0 {
				t.Errorf("a verdict: %s (%s)", res.Verdict, res.Reason)
			}
		})
	}
	// Nobody listening: an error.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	r := newRunner(t, "cmp.yaml", processOptions)
	if _, err := play.RunOnce(context.Background(), r.Engine(), adapter.TCPAddr(addr), 0); !errors.Is(err, adapter.ErrSUTUnavailable) {
		t.Errorf("closed port: %v", err)
	}
}

// listen serves each connection to a loopback listener with serve, until
// the test ends, and returns the listener's address.
func listen(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(conn)
		}
	}()
	return ln.Addr().String()
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
		outs, err := sut.Input(m.Action, map[string]expr.Value{"p": expr.IntValue(p)})
		if err != nil {
			return
		}
		for _, o := range outs {
			b, _ := json.Marshal(map[string]any{"action": o.Action, "args": o.Args})
			conn.Write(append(b, '\n'))
		}
	}
}
