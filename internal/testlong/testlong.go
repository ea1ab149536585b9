// Package testlong decides which tests are long: soaks and long matrices
// of runs, left out of the default go test ./... so that a newcomer waits
// for it, and run by CI in a second step with the environment variable
// STG_LONG=1:
//
//	STG_LONG=1 go test -v -timeout 60m ./e2e ./coreach ./pipeline ./symex ./instantiate ./solver ./online ./compose ./runner ./cmd/stg ./project ./predabs
//
// A long test either skips (Skip) or, better, plays a representative
// share of its matrix by default (Enabled, Pick, Runs) and all of it
// with STG_LONG=1, and reports its progress with t.Log (Progress).
//
// An environment variable rather than a -long test flag: go test ./...
// passes its flags to every package, and a package that does not define
// the flag fails; the variable reaches every test binary and is
// ignored where it does not matter.
package testlong

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Var is the environment variable that enables the long tests.
const Var = "STG_LONG"

// Enabled says whether the long tests run: STG_LONG is set to a true
// value (1, true, yes as strconv.ParseBool reads them).
func Enabled() bool {
	v, err := strconv.ParseBool(os.Getenv(Var))
	return err == nil && v
}

// Skip skips the test tb unless the long tests run.
func Skip(tb testing.TB) {
	tb.Helper()
	if !Enabled() {
		tb.Skipf("a long test: %s=1 runs it", Var)
	}
}

// Runs returns long when the long tests run, else short.
func Runs(short, long int) int {
	if Enabled() {
		return long
	}
	return short
}

// Pick returns xs when the long tests run, else its elements whose
// index keep accepts: the representative subset of the default run.
func Pick[T any](xs []T, keep func(i int, x T) bool) []T {
	if Enabled() {
		return xs
	}
	var r []T
	for i, x := range xs {
		if keep(i, x) {
			r = append(r, x)
		}
	}
	return r
}

// A Progress logs, at most every 30 s, how far a long test has come:
// "what: done/total after 1m30s", so that go test -v shows that it
// moves. It is safe for concurrent use.
type Progress struct {
	tb          testing.TB
	what        string
	total       int
	start, last time.Time

	mu   sync.Mutex
	done int
}

// NewProgress returns the progress of the test tb through total steps
// (runs, jobs) named what.
func NewProgress(tb testing.TB, what string, total int) *Progress {
	now := time.Now()
	return &Progress{tb: tb, what: what, total: total, start: now, last: now}
}

// Add counts n more steps done, and logs when the last log is 30 s old.
func (p *Progress) Add(n int) {
	p.tb.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if now := time.Now(); now.Sub(p.last) >= 30*time.Second {
		p.last = now
		p.tb.Logf("%s: %d/%d after %s", p.what, p.done, p.total, now.Sub(p.start).Round(time.Second))
	}
}
