package runner

import (
	"context"
	"errors"
	"fmt"
	"github.com/stg-tool/stg/adapter"
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

// RunTest plays the test case tc against the SUTs start gives, in a Go
// test: a Fail verdict or an error fails the test with the trace, and when
// no run passed, an Inconc verdict skips it with the reason.
//
// The environment may set STG_SEED (the first seed; by default one from
// the clock, logged) and STG_RUNS (the number of runs, seeds STG_SEED,
// STG_SEED+1, ...; default 1).
func RunTest(t T, tc Testcase, start adapter.Starter, opts Options) {
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
func RunOnce(ctx context.Context, r *Runner, start adapter.Starter, seed int64) (*Result, error) {
	sut, err := start(ctx)
	if err != nil {
		if !errors.Is(err, adapter.ErrSUTUnavailable) {
			err = fmt.Errorf("%w: %v", adapter.ErrSUTUnavailable, err)
		}
		return nil, err
	}
	defer sut.Close()
	return r.Run(ctx, sut, seed)
}
