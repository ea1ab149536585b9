package impl

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// talk sends the inputs to a, "action=v", and returns every output, as
// "action(arg)", the first ones (SM speaks first) included.
func talk(t *testing.T, a adapter.Adapter, inputs ...string) string {
	t.Helper()
	ctx := context.Background()
	var outs []string
	drain := func() {
		for {
			o, err := a.Receive(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if o == nil {
				return
			}
			var args []string
			for _, v := range o.Args {
				args = append(args, fmt.Sprint(v))
			}
			outs = append(outs, o.Action+"("+strings.Join(args, ",")+")")
		}
	}
	drain()
	for _, in := range inputs {
		action, v, _ := strings.Cut(in, "=")
		n, _ := new(big.Int).SetString(v, 10)
		if err := a.Send(ctx, adapter.Input{Action: action, Args: map[string]expr.Value{"v": expr.IntValue(n)}}); err != nil {
			t.Fatal(err)
		}
		drain()
	}
	return strings.Join(outs, " ")
}

func TestMachines(t *testing.T) {
	for _, c := range []struct {
		f      Fault
		w      bool
		system bool
		inputs []string
		want   string
	}{
		{Correct, true, false, []string{"int_bet=5", "int_amount=50"}, "int_start() int_win(true) int_cash(50) int_start()"},
		{Correct, false, false, []string{"int_bet=5", "int_amount=0", "int_bet=7"}, "int_start() int_win(false) int_cash(0) int_start() int_win(false)"},
		{Pays9x, true, false, []string{"int_bet=5", "int_amount=50"}, "int_start() int_win(true) int_cash(45) int_start()"},
		{NeverWins, true, false, []string{"int_bet=5"}, "int_start() int_win(false)"},
		{Bet101, true, false, []string{"int_bet=101", "int_amount=1010"}, "int_start() int_win(true) int_cash(1010) int_start()"},
		{Correct, true, true, []string{"bet=101", "bet=0", "bet=7"}, "refused() refused() cash(70)"},
		{Correct, false, true, []string{"bet=100"}, "cash(0)"},
		{Bet101, true, true, []string{"bet=101", "bet=0"}, "cash(1010) refused()"},
		{Pays9x, true, true, []string{"bet=10"}, "cash(90)"},
	} {
		a := New(c.f, c.w)
		if c.system {
			a = adapter.InProcess(NewSystem(c.f, c.w))
		}
		if got := talk(t, a, c.inputs...); got != c.want {
			t.Errorf("%s (w %v, system %v) on %v: %s, want %s", c.f, c.w, c.system, c.inputs, got, c.want)
		}
	}
}

// TestRefusesOutOfOrder: an input SM does not expect in its state is
// not taken (an in-process SUT reports it).
func TestRefusesOutOfOrder(t *testing.T) {
	a := New(Correct, true)
	err := a.Send(context.Background(), adapter.Input{Action: "int_amount", Args: map[string]expr.Value{"v": expr.IntValue(big.NewInt(1))}})
	if err == nil {
		t.Error("int_amount before a bet was taken")
	}
}
