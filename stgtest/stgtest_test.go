package stgtest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec/expr"
)

// tiny sends go and passes on yes; no is allowed off the purpose
// (Inconc), oops is forbidden (Fail).
const tiny = `kind: testcase
name: tiny
variables: {}
actions:
  go: {dir: send}
  yes: {dir: receive}
  no: {dir: receive}
  oops: {dir: receive}
  delta: {dir: receive}
initial: {location: A}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: A, action: go, to: B}
  - {from: A, action: yes, to: Fail}
  - {from: A, action: no, to: Fail}
  - {from: A, action: oops, to: Fail}
  - {from: A, action: delta, to: A}
  - {from: B, action: yes, to: Pass}
  - {from: B, action: no, to: Inconc}
  - {from: B, action: oops, to: Fail}
  - {from: B, action: delta, to: Fail}
`

// recorder is a testing.TB that records what the harness reports;
// Fatalf and Skipf end the goroutine, as testing's do.
type recorder struct {
	testing.TB // not set: the methods the harness must not call panic
	name       string
	logs       []string
	outcome    string // "pass", "fail" or "skip"
	msg        string
}

func (r *recorder) Helper()                  {}
func (r *recorder) Name() string             { return r.name }
func (r *recorder) Context() context.Context { return context.Background() }
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.end("fail", format, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.end("skip", format, args...) }

func (r *recorder) end(outcome, format string, args ...any) {
	r.outcome, r.msg = outcome, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// record runs f as the test named name would.
func record(name string, f func(t testing.TB)) *recorder {
	r := &recorder{name: name, outcome: "pass"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// answers returns a starter of in-process SUTs that answer go with the
// output answers[i] in run i (the last one from then on); "" is silence
// and "error" refuses the input.
func answers(answers ...string) adapter.Starter {
	run := 0
	return adapter.GoSUT(func() adapter.SUT {
		a := answers[min(run, len(answers)-1)]
		run++
		return adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) {
			switch a {
			case "":
				return nil, nil
			case "error":
				return nil, errors.New("refused")
			}
			return []adapter.Output{{Action: a}}, nil
		})
	})
}

func TestPlay(t *testing.T) {
	refuse := func(context.Context) (adapter.Adapter, error) { return nil, errors.New("no such SUT") }
	for _, tt := range []struct {
		name    string
		runs    int
		start   adapter.Starter
		outcome string
		want    []string // in the message, or in the logs when the test passes
	}{
		{"pass", 3, answers("yes"), "pass", []string{"run 1/3, seed 7: Pass after 2 steps", "run 3/3, seed 9: Pass"}},
		{"fail", 3, answers("yes", "oops"), "fail", []string{
			"test case tiny, run 2/3, seed 8: Fail: reached Fail on output oops", "receive  oops",
			"replay: STG_DEPTH=3 STG_SEED=8 STG_RUNS=1 go test -run '^TestX$/^case_1$'"}},
		{"inconc", 2, answers("no"), "skip", []string{"test case tiny: Inconc, no run passed: seed 7: reached Inconc on output no; seed 8: reached Inconc"}},
		{"inconc then pass", 2, answers("no", "yes"), "pass", []string{"seed 7: Inconc: reached Inconc on output no", "seed 8: Pass"}},
		{"SUT refuses input", 1, answers("error"), "fail", []string{"seed 7: ", "refused", "send", "replay: STG_DEPTH=3 STG_SEED=7"}},
		{"SUT cannot start", 1, refuse, "fail", []string{"seed 7: SUT unavailable: no such SUT"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := config{seed: 7, seedSet: true, runs: tt.runs, opts: runner.DefaultOptions(), env: []string{"STG_DEPTH=3"}}
			c.opts.Depth = 3
			r := record("TestX/case_1", func(t testing.TB) { play(t, tiny, tt.start, c) })
			if r.outcome != tt.outcome {
				t.Fatalf("outcome %s, want %s: %s\nlogs: %q", r.outcome, tt.outcome, r.msg, r.logs)
			}
			got := r.msg
			if r.outcome == "pass" {
				got = strings.Join(r.logs, "\n")
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q is missing from\n%s", w, got)
				}
			}
		})
	}
}

// TestLoadErrors checks that a bad embedded test case fails the test
// with the loader's FILE:LINE:COL messages, naming the offending item.
func TestLoadErrors(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"not YAML", "kind: [", []string{"embedded testcase:1:", "bad YAML"}},
		{"a spec", "kind: spec\nname: s\nvariables: {}\nactions: {a: {dir: input}}\ninitial: {location: A}\ntransitions: [{from: A, action: a, to: A}]\n",
			[]string{"s is a spec, not a testcase"}},
		{"bad items", strings.NewReplacer(
			"{dir: send}", "{dir: send, params: {p: nat}}",
			"{dir: receive}\n  oops", "{dir: sideways}\n  oops",
			"{from: A, action: go, to: B}", "{from: A, action: go, guard: 'p > ', to: B}",
			"{from: A, action: yes, to: Fail}", "{from: A, action: maybe, to: Fail}",
			"{from: B, action: no, to: Inconc}", "{from: Pass, action: no, to: Inconc}",
		).Replace(tiny), []string{"embedded testcase:5:31: unknown type nat", `unknown dir "sideways"`, "syntax error", "unknown action maybe", "verdict location Pass"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := record("TestX", func(t testing.TB) { play(t, tt.text, answers("yes"), config{runs: 1}) })
			if r.outcome != "fail" {
				t.Fatalf("outcome %s, want fail", r.outcome)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.msg, w) {
					t.Errorf("%q is missing from\n%s", w, r.msg)
				}
			}
		})
	}
}

func TestReadConfig(t *testing.T) {
	clock := func() time.Time { return time.Unix(0, 1_234_567_890) }
	def := runner.DefaultOptions()
	for _, tt := range []struct {
		name string
		env  map[string]string
		want func(c *config) // edits the default configuration into the expected one
		err  string
	}{
		{"defaults", nil, func(c *config) {}, ""},
		{"everything", map[string]string{
			"STG_SUT": `sh -c 'sleep 3; exec ./sut'`, "STG_SEED": "-5", "STG_RUNS": "20", "STG_DEPTH": "0",
			"STG_QUIESCENCE": "300ms", "STG_CONFIRM": "2s", "STG_STARTUP": "10s", "STG_TIMEOUT": "1m30s", "STG_MAX_STEPS": "50",
		}, func(c *config) {
			c.sut = []string{"sh", "-c", "sleep 3; exec ./sut"}
			c.seed, c.seedSet, c.runs = -5, true, 20
			c.opts.Depth, c.opts.Quiescence, c.opts.Auto = 0, 300*time.Millisecond, false
			c.opts.Confirm, c.opts.Startup, c.opts.Timeout, c.opts.MaxSteps = 2*time.Second, 10*time.Second, 90*time.Second, 50
			c.env = []string{`STG_SUT='sh -c '\''sleep 3; exec ./sut'\'''`, "STG_DEPTH=0", "STG_QUIESCENCE=300ms",
				"STG_CONFIRM=2s", "STG_STARTUP=10s", "STG_TIMEOUT=1m30s", "STG_MAX_STEPS=50"}
		}, ""},
		{"auto", map[string]string{"STG_QUIESCENCE": "auto"}, func(c *config) { c.env = []string{"STG_QUIESCENCE=auto"} }, ""},
		{"bad seed", map[string]string{"STG_SEED": "x"}, nil, `STG_SEED="x": want an integer`},
		{"bad runs", map[string]string{"STG_RUNS": "0"}, nil, `STG_RUNS="0": want an integer >= 1`},
		{"bad depth", map[string]string{"STG_DEPTH": "-1"}, nil, `STG_DEPTH="-1"`},
		{"bad quiescence", map[string]string{"STG_QUIESCENCE": "200"}, nil, `STG_QUIESCENCE="200": want a positive Go duration such as 500ms or 2s or auto`},
		{"negative confirm", map[string]string{"STG_CONFIRM": "-1s"}, nil, `STG_CONFIRM="-1s"`},
		{"bad startup", map[string]string{"STG_STARTUP": "soon"}, nil, `STG_STARTUP="soon"`},
		{"max confirm", map[string]string{"STG_MAX_CONFIRM": "2m"}, func(c *config) {
			c.opts.MaxConfirm, c.env = 2*time.Minute, []string{"STG_MAX_CONFIRM=2m"}
		}, ""},
		{"bad max confirm", map[string]string{"STG_MAX_CONFIRM": "0"}, nil, `STG_MAX_CONFIRM="0"`},
		{"bad timeout", map[string]string{"STG_TIMEOUT": "0s"}, nil, `STG_TIMEOUT="0s"`},
		{"bad max steps", map[string]string{"STG_MAX_STEPS": "1e3"}, nil, `STG_MAX_STEPS="1e3"`},
		{"bad SUT", map[string]string{"STG_SUT": "'./sut"}, nil, `STG_SUT="'./sut": unterminated '`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readConfig(func(name string) string { return tt.env[name] }, clock)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := config{seed: 234_567_890, runs: 1, opts: def}
			tt.want(&want)
			if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
				t.Errorf("got  %s\nwant %s", g, w)
			}
		})
	}
}

// TestEnvironment checks Run and RunCommand against the real environment.
func TestEnvironment(t *testing.T) {
	t.Setenv("STG_SUT", "")
	r := record("TestX", func(t testing.TB) { RunCommand(t, tiny) })
	if r.outcome != "skip" || !strings.Contains(r.msg, "STG_SUT is not set") {
		t.Errorf("without STG_SUT: %s: %s", r.outcome, r.msg)
	}
	t.Setenv("STG_SUT", "./sut")
	t.Setenv("STG_SEED", "3")
	t.Setenv("STG_RUNS", "2")
	r = record("TestX", func(t testing.TB) { Run(t, tiny, answers("yes", "oops")) })
	want := "replay: STG_SEED=4 STG_RUNS=1 go test -run '^TestX$'" // no STG_SUT in process
	if r.outcome != "fail" || !strings.Contains(r.msg, want) {
		t.Errorf("in process: %s: %s\nwant %q", r.outcome, r.msg, want)
	}
	t.Setenv("STG_TIMEOUT", "forever")
	r = record("TestX", func(t testing.TB) { RunCommand(t, tiny) })
	if r.outcome != "fail" || !strings.Contains(r.msg, "STG_TIMEOUT") {
		t.Errorf("a malformed STG_TIMEOUT: %s: %s", r.outcome, r.msg)
	}
}

// TestGeneratedHeader checks that generated files document every
// variable the harness reads.
func TestGeneratedHeader(t *testing.T) {
	m, err := load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	src, err := emit.GoSource(m, "tiny_test")
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(string(src), "\npackage ")
	for _, v := range variables() {
		if !strings.Contains(header, "//\t"+v.name+" ") {
			t.Errorf("the header of a generated file does not document %s:\n%s", v.name, header)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"./sut":        "./sut",
		"":             "''",
		"a b":          "'a b'",
		"it's":         `'it'\''s'`,
		"^TestX$":      "'^TestX$'",
		"STG_SEED=1,2": "STG_SEED=1,2",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
