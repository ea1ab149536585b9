// Package examples lists the implementations of the bundled examples: for
// each example, its reference implementation and its mutants, each both as
// a program under examples/EXAMPLE/sut/NAME (JSON Lines over stdin and
// stdout) and as an in-process SUT built from the same state machine
// (examples/EXAMPLE/sut/impl). Tests enumerate them with SUTs.
package examples

import (
	"fmt"
	"path"

	"github.com/stg-tool/stg/adapter"
	account "github.com/stg-tool/stg/examples/account/sut/impl"
	atm "github.com/stg-tool/stg/examples/atm/sut/impl"
	buffer "github.com/stg-tool/stg/examples/buffer/sut/impl"
	cmp "github.com/stg-tool/stg/examples/cmp/sut/impl"
	"github.com/stg-tool/stg/examples/internal/jsonl"
	jobs "github.com/stg-tool/stg/examples/jobs/sut/impl"
	retry "github.com/stg-tool/stg/examples/retry/sut/impl"
	vending "github.com/stg-tool/stg/examples/vending/sut/impl"
)

// DelayVariable names the environment variable that delays the start of
// the example programs (the Go ones and examples/cmp/sut/python/cmp.py):
// with STG_EXAMPLE_DELAY=3s a program sleeps 3 seconds before it reads its
// first input.
const DelayVariable = jsonl.DelayVariable

// SUT is one implementation of an example: its reference implementation
// ("correct") or a mutant ("mutant-...").
type SUT struct {
	Example string             // the example's directory under examples/: "cmp"
	Name    string             // the program's directory under sut/: "correct", "mutant-no-end"
	New     func() adapter.SUT // a fresh in-process SUT, for one run
}

// Correct reports whether s is the reference implementation.
func (s SUT) Correct() bool { return s.Name == "correct" }

// Package returns the import path of s's program, relative to the module:
// "./examples/cmp/sut/correct".
func (s SUT) Package() string { return "./" + path.Join("examples", s.Example, "sut", s.Name) }

func (s SUT) String() string { return s.Example + "/" + s.Name }

// SUTs returns every example's implementations, by example in alphabetical
// order, the correct one first.
func SUTs() []SUT {
	var r []SUT
	r = append(r, list("account", account.Faults(), account.New)...)
	r = append(r, list("atm", atm.Faults(), atm.New)...)
	r = append(r, list("buffer", buffer.Faults(), buffer.New)...)
	r = append(r, list("cmp", cmp.Faults(), cmp.New)...)
	r = append(r, list("jobs", jobs.Faults(), jobs.New)...)
	r = append(r, list("retry", retry.Faults(), retry.New)...)
	r = append(r, list("vending", vending.Faults(), vending.New)...)
	return r
}

func list[F fmt.Stringer](example string, faults []F, newSUT func(F) adapter.SUT) []SUT {
	r := make([]SUT, len(faults))
	for i, f := range faults {
		r[i] = SUT{Example: example, Name: f.String(), New: func() adapter.SUT { return newSUT(f) }}
	}
	return r
}
