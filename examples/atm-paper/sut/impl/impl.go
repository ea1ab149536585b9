// Package impl implements examples/atm-paper/spec.yaml, the ATM of Fig. 1
// of the symbolic-execution paper exactly, once for the reference SUT
// (sut/correct) and its mutants (sut/mutant-*). Run serves it as a
// process, New and NewAt as an in-process SUT.
//
// The spec leaves the initial values of its attributes x, m, t and cp
// free, so an implementation may start from any of them. New starts from
// 0 for all four; NewAt from the values it is given. Run reads them from
// the environment variables STG_ATM_X0, STG_ATM_M0, STG_ATM_T0 and
// STG_ATM_CP0 (decimal integers of any size, 0 when unset), so that
// STG_ATM_M0=900 starts the account at 900; it states the values it was
// given on stderr, and exits with status 2 on a value that is not an
// integer.
//
// The machine answers an input at once: after amount(v) it sends exactly
// one of cash(v) and screen(no_money), after check it sends sum(m), so it
// is back in q0, the only quiescent location, when it waits for the next
// input. Every input of the spec is therefore always taken; an input with
// a missing or ill-typed argument is ignored (Run says so on stderr).
package impl

import (
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct             Fault = iota
	FeeAt1000                 // charges the fee when m <= 1000 instead of m < 1000 (off-by-one)
	NoFee                     // the cashFee branch withdraws x without the fee of 1
	ThirdWithdrawalPaid       // pays cash when cp == 3 (cp <= 3 instead of cp <= 2)
	WrongAmount               // pays cash(x-1) when it withdraws x
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault {
	return []Fault{Correct, FeeAt1000, NoFee, ThirdWithdrawalPaid, WrongAmount}
}

// String returns the directory of the program under sut/ that runs with f:
// "correct" or "mutant-...".
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-fee-at-1000", "mutant-no-fee", "mutant-third-withdrawal-paid", "mutant-wrong-amount"}[f]
}

// Initial is an initial state of the ATM, the values of the spec's
// attributes before the first input. A nil field stands for 0. Only M and
// CP change what the ATM says: amount sets x and deposit sets t before
// they are read.
type Initial struct {
	X, M, T, CP *big.Int
}

// name is the SUT's name in its diagnostics.
const name = "atm-paper"

// Run serves the JSON Lines protocol on stdin and stdout until stdin
// ends, from the initial state given by the environment (see the package
// documentation).
func Run(f Fault) {
	init, set, err := initialFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
	if set != "" {
		fmt.Fprintf(os.Stderr, "%s: starting with %s\n", name, set)
	}
	jsonl.Serve(name, newMachine(f, init))
}

// New returns a fresh in-process SUT with fault f, starting with all
// attributes 0.
func New(f Fault) adapter.SUT { return NewAt(f, Initial{}) }

// NewAt returns a fresh in-process SUT with fault f, starting from init.
func NewAt(f Fault, init Initial) adapter.SUT { return jsonl.Adapt(name, newMachine(f, init)) }

// initialFromEnv reads the initial state from the variables STG_ATM_X0,
// STG_ATM_M0, STG_ATM_T0 and STG_ATM_CP0 through getenv. It also returns
// the assignments it found, as "m=900 cp=0", for the log.
func initialFromEnv(getenv func(string) string) (Initial, string, error) {
	var init Initial
	var set []string
	for _, v := range []struct {
		attr string
		dst  **big.Int
	}{{"x", &init.X}, {"m", &init.M}, {"t", &init.T}, {"cp", &init.CP}} {
		env := "STG_ATM_" + strings.ToUpper(v.attr) + "0"
		s := strings.TrimSpace(getenv(env))
		if s == "" {
			continue
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return Initial{}, "", fmt.Errorf("bad %s=%q: want a decimal integer", env, s)
		}
		*v.dst = n
		set = append(set, v.attr+"="+n.String())
	}
	return init, strings.Join(set, " "), nil
}

var (
	one      = big.NewInt(1)
	thousand = big.NewInt(1000)
)

// machine is the ATM in q0. Its attributes are its own copies.
type machine struct {
	f           Fault
	x, m, t, cp *big.Int
	maxCP       *big.Int // the largest cp at which a withdrawal is paid
}

func newMachine(f Fault, init Initial) *machine {
	val := func(v *big.Int) *big.Int {
		if v == nil {
			return new(big.Int)
		}
		return new(big.Int).Set(v)
	}
	a := &machine{f: f, x: val(init.X), m: val(init.M), t: val(init.T), cp: val(init.CP), maxCP: big.NewInt(2)}
	if f == ThirdWithdrawalPaid {
		a.maxCP = big.NewInt(3)
	}
	return a
}

func (a *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch msg.Action {
	case "amount": // ask: x := v, cp := cp + 1, then q1 answers at once
		v, ok := msg.Int("v")
		if !ok {
			return nil, false
		}
		a.x.Set(v)
		a.cp.Add(a.cp, one)
		return []jsonl.Message{a.withdraw()}, true
	case "deposit": // deposit: t := v, m := m + v, cp := 0
		v, ok := msg.Int("v")
		if !ok {
			return nil, false
		}
		a.t.Set(v)
		a.m.Add(a.m, v)
		a.cp.SetInt64(0)
		return nil, true
	case "check": // check, then sum in q2
		return []jsonl.Message{jsonl.Out("sum", "v", a.m)}, true
	}
	return nil, false
}

// withdraw is q1: cash, cashFee or noMoney.
func (a *machine) withdraw() jsonl.Message {
	if a.cp.Cmp(a.maxCP) > 0 || a.x.Cmp(a.m) > 0 {
		return jsonl.Out("screen", "msg", "no_money")
	}
	c := a.m.Cmp(thousand)
	fee := c < 0 || a.f == FeeAt1000 && c == 0
	a.m.Sub(a.m, a.x)
	if fee && a.f != NoFee {
		a.m.Sub(a.m, one)
	}
	if a.f == WrongAmount {
		return jsonl.Out("cash", "v", new(big.Int).Sub(a.x, one))
	}
	return jsonl.Out("cash", "v", a.x)
}
