package online

import (
	"encoding/json"
	"math/big"
	"strconv"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// TestExternalConstraint: an accept path with an external constraint
// (the slot machine's SM, constrained by its interface: a bet in
// (0, 100] and a gain of 10 times the bet). A run inside the constraint
// passes; a stimulus outside it fits no rule (its accept node's twin is
// ⊥); an output outside it that the spec allows is Inconc, not Pass; an
// output the spec does not allow still fails.
func TestExternalConstraint(t *testing.T) {
	m, err := specfile.LoadFile("../examples/slot/sm.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	x, err := symex.NewExecutor(z, m, symex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	purpose := func(src string) *Purpose {
		sp, err := specfile.ParseSymPurpose("win.yaml", []byte("kind: sympurpose\nname: win\nspec: sm.yaml\naccept:\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		tp, err := NewPurpose(x, sp)
		if err != nil {
			t.Fatal(err)
		}
		return tp
	}
	tp := purpose(`  - path: [s_init, s_bet, s_win, s_amount, s_pay, s_end]
    constraint: "0 < s_bet.v && s_bet.v <= 100 && s_amount.v == 10 * bb"
`)
	ev := func(line string) Event {
		var te struct {
			Dir    string         `json:"dir"`
			Action string         `json:"action"`
			Args   map[string]any `json:"args"`
		}
		if err := json.Unmarshal([]byte(line), &te); err != nil {
			t.Fatal(err)
		}
		for k, v := range te.Args {
			if f, ok := v.(float64); ok {
				te.Args[k] = json.Number(strconv.Itoa(int(f)))
			}
		}
		e, err := EventOf(m, specfile.TraceEvent{Send: te.Dir == "send", Action: te.Action, Args: te.Args})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	run := func(tp *Purpose, bet, gain, cash int) (Rule, Verdict) {
		events := []Event{ev(`{"dir":"receive","action":"int_start"}`),
			ev(`{"dir":"send","action":"int_bet","args":{"v":` + strconv.Itoa(bet) + `}}`),
			ev(`{"dir":"receive","action":"int_win","args":{"r":true}}`),
			ev(`{"dir":"send","action":"int_amount","args":{"v":` + strconv.Itoa(gain) + `}}`),
			ev(`{"dir":"receive","action":"int_cash","args":{"v":` + strconv.Itoa(cash) + `}}`),
			ev(`{"dir":"receive","action":"int_start"}`)}
		steps, err := NewTester(z, tp).Replay(events, nil)
		if err != nil {
			t.Fatal(err)
		}
		last := steps[len(steps)-1]
		return last.Rule, last.Verdict
	}
	for _, c := range []struct {
		bet, gain, cash int
		rule            Rule
		verdict         Verdict
	}{
		{5, 50, 50, 4, Pass},
		{100, 1000, 1000, 4, Pass},
		{101, 1010, 1010, NoRule, Inconc}, // the bet's twin N'2: ⊥
		{0, 0, 0, NoRule, Inconc},
		{5, 49, 49, NoRule, Inconc}, // the gain's twin N'4
		{5, 50, 45, 2, Fail},
	} {
		rule, v := run(tp, c.bet, c.gain, c.cash)
		if rule != c.rule || v != c.verdict {
			t.Errorf("bet %d, gain %d, cash %d: %s %s, want %s %s", c.bet, c.gain, c.cash, rule, v, c.rule, c.verdict)
		}
	}
	if got := expr.Format(tp.Cond(tp.Targets(tp.root)[0])); got == expr.Format(tp.Targets(tp.root)[0].State.PC) {
		t.Errorf("the accept node's condition %s has no constraint", got)
	}
}

// TestExternalConstraintOnOutput: an accept node whose constraint reads
// the value of the output into it: an output the spec allows but the
// constraint does not reaches the accept node's twin, ⊥: Inconc (rule
// 3), not Pass.
func TestExternalConstraintOnOutput(t *testing.T) {
	z, _, tp := purposeOn(t, `kind: spec
name: up
variables: {x: int}
actions:
  in:  {dir: input,  params: {p: int}}
  out: {dir: output, params: {q: int}}
initial: {location: a}
transitions:
  - {name: get, from: a, action: in, assign: {x: p}, to: b}
  - {name: put, from: b, action: out, guard: q > x, to: a}
`, symPurpose(t, "kind: sympurpose\nname: up\nspec: up.yaml\naccept:\n  - {path: [get, put], constraint: \"put.q < 10 && get.p >= 0\"}\n")) // ranges_test.go
	for _, c := range []struct {
		p, q    int64
		rule    Rule
		verdict Verdict
	}{
		{5, 7, 4, Pass},
		{5, 20, 3, Inconc},
		{5, 3, 2, Fail},
		{-1, 7, NoRule, Inconc},
	} {
		events := []Event{
			{Stim: true, Action: "in", Args: map[string]expr.Value{"p": expr.IntValue(big.NewInt(c.p))}},
			{Action: "out", Args: map[string]expr.Value{"q": expr.IntValue(big.NewInt(c.q))}},
		}
		steps, err := NewTester(z, tp).Replay(events, nil)
		if err != nil {
			t.Fatal(err)
		}
		last := steps[len(steps)-1]
		if last.Rule != c.rule || last.Verdict != c.verdict {
			t.Errorf("in?%d out!%d: %s %s, want %s %s", c.p, c.q, last.Rule, last.Verdict, c.rule, c.verdict)
		}
	}
}
