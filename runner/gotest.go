package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// T is the part of testing.TB that RunTest uses (the package does not
// import testing).
type T interface {
	Helper()
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// A Starter starts a fresh SUT for a run.
type Starter func(ctx context.Context) (Adapter, error)

// Command starts the SUT process argv for each run, its standard error
// going to stderr.
func Command(argv []string, stderr io.Writer) Starter {
	return func(ctx context.Context) (Adapter, error) { return StartProcess(argv, stderr) }
}

// TCPAddr connects to the SUT at addr ("host:port") for each run.
func TCPAddr(addr string) Starter {
	return func(ctx context.Context) (Adapter, error) { return DialTCP(ctx, addr) }
}

// GoSUT calls newSUT for a fresh in-process SUT for each run.
func GoSUT(newSUT func() SUT) Starter {
	return func(ctx context.Context) (Adapter, error) { return InProcess(newSUT()), nil }
}

// RunTest plays the test case tc against the SUTs start gives, in a Go
// test: a Fail verdict or an error fails the test with the trace, and when
// no run passed, an Inconc verdict skips it with the reason.
//
// The environment may set STG_SEED (the first seed; by default one from
// the clock, logged) and STG_RUNS (the number of runs, seeds STG_SEED,
// STG_SEED+1, ...; default 1).
func RunTest(t T, tc Testcase, start Starter, opts Options) {
	t.Helper()
	m, err := tc.Model()
	if err != nil {
		t.Fatalf("test case %s: %v", tc.Name, err)
		return
	}
	seed := time.Now().UnixNano() % 1e9
	if s := os.Getenv("STG_SEED"); s != "" {
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("STG_SEED=%q: not an integer", s)
			return
		}
	}
	runs := 1
	if s := os.Getenv("STG_RUNS"); s != "" {
		if runs, err = strconv.Atoi(s); err != nil || runs < 1 {
			t.Fatalf("STG_RUNS=%q: not a positive integer", s)
			return
		}
	}
	r, err := New(m, opts)
	if err != nil {
		t.Fatalf("test case %s: %v", tc.Name, err)
		return
	}
	defer r.Close()
	passed := 0
	var inconc []string
	for i := 0; i < runs; i++ {
		res, err := RunOnce(context.Background(), r, start, seed+int64(i))
		if err != nil {
			msg := fmt.Sprintf("test case %s, seed %d: %v", tc.Name, seed+int64(i), err)
			if res != nil && len(res.Trace) > 0 {
				msg += "\n" + res.TraceString()
			}
			t.Fatalf("%s", msg)
			return
		}
		switch res.Verdict {
		case Fail:
			t.Fatalf("test case %s: Fail: %s\n%sreplay: STG_SEED=%d STG_RUNS=1", tc.Name, res.Reason, res.TraceString(), res.Seed)
			return
		case Pass:
			passed++
			t.Logf("test case %s, seed %d: Pass after %d steps", tc.Name, res.Seed, len(res.Trace))
		default:
			inconc = append(inconc, fmt.Sprintf("seed %d: %s", res.Seed, res.Reason))
		}
	}
	if passed == 0 {
		t.Skipf("test case %s: Inconc: %s", tc.Name, strings.Join(inconc, "; "))
	}
}

// RunOnce starts a SUT with start, plays one run of r against it with
// seed, and releases the SUT.
func RunOnce(ctx context.Context, r *Runner, start Starter, seed int64) (*Result, error) {
	sut, err := start(ctx)
	if err != nil {
		if !errors.Is(err, ErrSUTUnavailable) {
			err = fmt.Errorf("%w: %v", ErrSUTUnavailable, err)
		}
		return nil, err
	}
	defer sut.Close()
	return r.Run(ctx, sut, seed)
}

// SplitCommand splits a command line into words like a simple shell:
// blanks separate words; single quotes keep everything literally; double
// quotes keep everything but \" and \\; a backslash outside quotes keeps
// the next character. It does not expand variables or globs.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
