package impl

import (
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// faultVariable makes the test binary serve as the program of a fault
// (TestProcess starts it so).
const faultVariable = "STG_ATM_PAPER_TEST_FAULT"

func TestMain(m *testing.M) {
	if name := os.Getenv(faultVariable); name != "" {
		for _, f := range Faults() {
			if f.String() == name {
				Run(f)
				os.Exit(0)
			}
		}
		fmt.Fprintf(os.Stderr, "no fault %q\n", name)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// A script is a conversation, written as space-separated steps
// INPUT[=OUTPUT]: "deposit(100) amount(50)=cash(50) check=sum(949)". A
// step without =OUTPUT expects quiescence.
type script string

type step struct {
	action string
	arg    *big.Int // nil for check
	want   string   // "cash(50)", "screen(no_money)"; "" for quiescence
}

func (s script) steps(t *testing.T) []step {
	t.Helper()
	var r []step
	for _, tok := range strings.Fields(string(s)) {
		in, want, _ := strings.Cut(tok, "=")
		st := step{action: in, want: want}
		if a, v, ok := strings.Cut(in, "("); ok {
			n, ok := new(big.Int).SetString(strings.TrimSuffix(v, ")"), 10)
			if !ok {
				t.Fatalf("bad step %q", tok)
			}
			st.action, st.arg = a, n
		}
		r = append(r, st)
	}
	return r
}

// play plays sc against a fresh in-process SUT with fault f from init; it
// returns the first step whose outputs differ, or "".
func play(t *testing.T, f Fault, init Initial, sc script) string {
	t.Helper()
	sut := NewAt(f, init)
	for i, st := range sc.steps(t) {
		args := map[string]expr.Value{}
		if st.arg != nil {
			args["v"] = expr.IntValue(st.arg)
		}
		outs, err := sut.Input(st.action, args)
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		var got []string
		for _, o := range outs {
			for _, v := range o.Args {
				got = append(got, fmt.Sprintf("%s(%v)", o.Action, v))
			}
		}
		if want := strings.Join(got, " "); want != st.want {
			return fmt.Sprintf("step %d (%s): got %q, want %q", i+1, st.action, want, st.want)
		}
	}
	return ""
}

func n(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

// TestConversations plays each script from its initial state against the
// reference implementation, which must answer as the spec says, and
// against each mutant, which must deviate exactly on the scripts that
// list it.
func TestConversations(t *testing.T) {
	tests := []struct {
		name    string
		init    Initial
		sc      script
		differs []Fault
	}{
		{"fee below 1000", Initial{M: n("900")},
			"amount(100)=cash(100) check=sum(799)",
			[]Fault{NoFee, WrongAmount}},
		{"no fee at 1000", Initial{M: n("1000")},
			"amount(100)=cash(100) check=sum(900)",
			[]Fault{FeeAt1000, WrongAmount}},
		{"no fee above 1000", Initial{M: n("5000")},
			"amount(100)=cash(100) check=sum(4900)",
			[]Fault{WrongAmount}},
		{"deposit up to 1000", Initial{M: n("900")},
			"check=sum(900) deposit(100) amount(100)=cash(100) check=sum(900)",
			[]Fault{FeeAt1000, WrongAmount}},
		{"whole balance below 1000", Initial{},
			"deposit(500) amount(500)=cash(500) check=sum(-1) amount(0)=screen(no_money)",
			[]Fault{NoFee, WrongAmount}},
		{"no money", Initial{},
			"amount(1)=screen(no_money) check=sum(0)",
			nil},
		{"no money at 5000", Initial{M: n("5000")},
			"amount(5001)=screen(no_money) amount(5000)=cash(5000) check=sum(0)",
			[]Fault{WrongAmount}},
		{"third withdrawal refused", Initial{M: n("5000")},
			"amount(10)=cash(10) amount(10)=cash(10) amount(10)=screen(no_money) deposit(0) amount(10)=cash(10) check=sum(4970)",
			[]Fault{ThirdWithdrawalPaid, WrongAmount}},
		{"initial cp", Initial{M: n("5000"), CP: n("2")},
			"amount(1)=screen(no_money) deposit(0) amount(1)=cash(1)",
			[]Fault{ThirdWithdrawalPaid, WrongAmount}},
		{"negative amounts", Initial{},
			"amount(-5)=cash(-5) check=sum(4) deposit(-10) check=sum(-6)",
			[]Fault{NoFee, WrongAmount}},
		{"check and sum", Initial{M: n("-7"), X: n("3"), T: n("4")},
			"check=sum(-7) check=sum(-7)",
			nil},
		{"big", Initial{M: n("1" + strings.Repeat("0", 30))},
			script("amount(1" + strings.Repeat("0", 29) + ")=cash(1" + strings.Repeat("0", 29) + ") check=sum(9" + strings.Repeat("0", 29) + ")"),
			[]Fault{WrongAmount}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range Faults() {
				diff := play(t, f, tt.init, tt.sc)
				switch want := slices.Contains(tt.differs, f); {
				case want && diff == "":
					t.Errorf("%s answers as the spec says; want a deviation", f)
				case !want && diff != "":
					t.Errorf("%s: %s", f, diff)
				}
			}
		})
	}
}

// TestNotTaken checks that ill-formed inputs are refused and change
// nothing.
func TestNotTaken(t *testing.T) {
	sut := NewAt(Correct, Initial{M: n("900")})
	for _, in := range []struct {
		action string
		args   map[string]expr.Value
	}{
		{"deposit", nil},
		{"amount", map[string]expr.Value{"w": expr.IntValue(n("1"))}},
		{"withdraw", map[string]expr.Value{"v": expr.IntValue(n("1"))}},
	} {
		if outs, err := sut.Input(in.action, in.args); err == nil {
			t.Errorf("%s%v: took it, answering %v", in.action, in.args, outs)
		}
	}
	outs, err := sut.Input("check", nil)
	if err != nil || len(outs) != 1 || fmt.Sprint(outs[0].Args["v"]) != "900" {
		t.Errorf("check after refused inputs: %v, %v; want sum(900)", outs, err)
	}
}

func TestInitialFromEnv(t *testing.T) {
	tests := []struct {
		env     map[string]string
		m, cp   string
		set     string
		wantErr bool
	}{
		{map[string]string{}, "0", "0", "", false},
		{map[string]string{"STG_ATM_M0": "900"}, "900", "0", "m=900", false},
		{map[string]string{"STG_ATM_M0": " -5 ", "STG_ATM_CP0": "2", "STG_ATM_X0": "7", "STG_ATM_T0": "1"}, "-5", "2", "x=7 m=-5 t=1 cp=2", false},
		{map[string]string{"STG_ATM_M0": "1" + strings.Repeat("0", 40)}, "1" + strings.Repeat("0", 40), "0", "m=1" + strings.Repeat("0", 40), false},
		{map[string]string{"STG_ATM_M0": "9.5"}, "", "", "", true},
		{map[string]string{"STG_ATM_CP0": "two"}, "", "", "", true},
	}
	for _, tt := range tests {
		init, set, err := initialFromEnv(func(k string) string { return tt.env[k] })
		if tt.wantErr {
			if err == nil {
				t.Errorf("%v: no error", tt.env)
			}
			continue
		}
		a := newMachine(Correct, init)
		if err != nil || a.m.String() != tt.m || a.cp.String() != tt.cp || set != tt.set {
			t.Errorf("%v: m=%v cp=%v set %q, %v; want m=%s cp=%s set %q", tt.env, a.m, a.cp, set, err, tt.m, tt.cp, tt.set)
		}
	}
}

// TestProcess runs Run as a process (this test binary, see TestMain) from
// m = 900 and m = 5000 given in the environment.
func TestProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts processes")
	}
	in := `{"action":"check"}
{"action":"amount","args":{"v":100}}
{"action":"deposit"}
{"action":"check"}
`
	for _, tt := range []struct{ m0, want string }{
		{"900", `{"action":"sum","args":{"v":900}} {"action":"cash","args":{"v":100}} {"action":"sum","args":{"v":799}}`},
		{"5000", `{"action":"sum","args":{"v":5000}} {"action":"cash","args":{"v":100}} {"action":"sum","args":{"v":4900}}`},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), faultVariable+"=correct", "STG_ATM_M0="+tt.m0)
		cmd.Stdin = strings.NewReader(in)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if got := strings.Join(strings.Fields(string(out)), " "); err != nil || got != tt.want {
			t.Errorf("m0=%s: %s, %v; want %s", tt.m0, got, err, tt.want)
		}
		if log := stderr.String(); !strings.Contains(log, "starting with m="+tt.m0) || !strings.Contains(log, `ignoring {"action":"deposit"}`) {
			t.Errorf("m0=%s: stderr %q: want the initial state and the ignored deposit", tt.m0, log)
		}
	}
}
