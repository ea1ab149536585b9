package specfile

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

const ltsSpec = `kind: spec
name: q
types: {Phase: [welcome, busy, put_down]}
variables:
  TryCounter: int
  State: Phase
actions:
  Call:   {dir: input}
  HangUp: {dir: input}
  Delay:  {dir: input}
  Enter:  {dir: input, params: {n: int}}
initial: {location: S, condition: "TryCounter == 0"}
transitions:
  - {from: S, action: Call, to: S}
`

const ltsPurpose = `kind: purpose
name: fig4
variables: {}
initial: {location: q0}
accept: [qf]
where: {q2: "TryCounter != 0", q4: "TryCounter == 0 && State == welcome"}
transitions:
  - {from: q0, action: Call, to: q1}
  - {from: q1, action: {except: [HangUp]}, to: q1}
  - {from: q1, action: [Delay, Enter], to: q2}
  - {from: q2, action: "*", to: q4}
  - {from: q4, action: HangUp, to: qf}
  - {from: qf, action: {except: []}, to: qf}
`

func loadLTS(t *testing.T, purpose string) (*spec.Model, error) {
	t.Helper()
	s, err := ParseModel("s.yaml", []byte(ltsSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ParseModel("p.yaml", []byte(purpose), s)
}

func TestPurposeLTS(t *testing.T) {
	m, err := loadLTS(t, ltsPurpose)
	if err != nil {
		t.Fatal(err)
	}
	if m.LTS == nil {
		t.Fatal("no LTS")
	}
	var arcs []string
	for _, a := range m.LTS.Arcs {
		arcs = append(arcs, a.From+" "+a.String()+" "+a.To+" "+strings.Join(a.Actions, ","))
	}
	want := []string{
		"q0 Call q1 Call",
		"q1 O^M \\ {HangUp} q1 Call,Delay,Enter",
		"q1 {Delay, Enter} q2 Delay,Enter",
		"q2 * q4 *",
		"q4 HangUp qf HangUp",
		"qf O^M qf Call,HangUp,Delay,Enter",
	}
	if !reflect.DeepEqual(arcs, want) {
		t.Errorf("arcs:\n%s\nwant\n%s", strings.Join(arcs, "\n"), strings.Join(want, "\n"))
	}
	explicit := map[string]bool{}
	for _, a := range m.LTS.Arcs {
		if a.Explicit {
			explicit[a.String()] = true
		}
	}
	if !reflect.DeepEqual(explicit, map[string]bool{"Call": true, "{Delay, Enter}": true, "HangUp": true}) {
		t.Errorf("explicit arcs %v", explicit)
	}
	// The expansion: one transition per action.
	if len(m.Transitions) != 1+3+2+1+1+4 {
		t.Errorf("%d transitions, want 12", len(m.Transitions))
	}
	for _, tr := range m.Transitions {
		if tr.Action == "" || (tr.Action != spec.Otherwise && m.Action(tr.Action) == nil) {
			t.Errorf("transition %s has action %q", tr.Label(), tr.Action)
		}
	}
	if got := expr.Format(m.LTS.Predicate("q4")); got != "TryCounter == 0 && State == welcome" {
		t.Errorf("where q4 = %s", got)
	}
	if m.LTS.Predicate("q1") != nil || !m.LTS.UsesSets() {
		t.Errorf("Predicate(q1) = %v, UsesSets = %v", m.LTS.Predicate("q1"), m.LTS.UsesSets())
	}
	err = m.RefuseStatePredicates("stg generate")
	if err == nil || !strings.HasPrefix(err.Error(), "p.yaml:6:9: stg generate does not read where: state predicates (location q2)") {
		t.Errorf("refusal: %v", err)
	}
}

func TestPurposeLTSPlain(t *testing.T) {
	m, err := loadLTS(t, strings.Replace(ltsPurpose, `where: {q2: "TryCounter != 0", q4: "TryCounter == 0 && State == welcome"}`+"\n", "", 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.RefuseStatePredicates("stg generate"); err != nil {
		t.Errorf("no where: but refused: %v", err)
	}
}

// TestPurposeLTSErrors: each line of the purpose replaced in turn.
func TestPurposeLTSErrors(t *testing.T) {
	for _, c := range []struct {
		line int
		repl string
		want string
	}{
		{10, "  - {from: q1, action: [Delay, Jump], to: q2}", "p.yaml:10:32: unknown action Jump in the action set"},
		{10, "  - {from: q1, action: [Delay, Delay], to: q2}", "p.yaml:10:32: action Delay is listed twice in the action set"},
		{10, "  - {from: q1, action: [], to: q2}", "p.yaml:10:24: empty action set"},
		{9, "  - {from: q1, action: {except: [Hang]}, to: q1}", "p.yaml:9:34: unknown action Hang in the except"},
		{9, "  - {from: q1, action: {only: [HangUp]}, to: q1}", "p.yaml:9:25: unknown key only in action set (allowed: except)"},
		{9, "  - {from: q1, action: {except: [Call, HangUp, Delay, Enter]}, to: q1}", "p.yaml:9:24: the action set {except: [...]} is empty"},
		{9, "  - {from: q1, action: [[Call]], to: q1}", "p.yaml:9:25: an action of the action set must be a single value"},
		{6, `where: {q9: "TryCounter != 0"}`, "p.yaml:6:9: where: q9 is not a location of the purpose"},
		{6, `where: {q2: "TryCounter + 1"}`, "p.yaml:6:13: state predicate of q2 TryCounter + 1 has type int, want bool"},
		{6, `where: {q2: "Nope != 0"}`, "p.yaml:6:14: undeclared name Nope"},
		{6, `where: [q2]`, "p.yaml:6:8: where must be a mapping"},
	} {
		src := edit(ltsPurpose, c.line, c.repl)
		_, err := loadLTS(t, src)
		if err == nil || !strings.Contains(err.Error(), c.want) || len(err.(expr.ErrorList)) != 1 {
			t.Errorf("line %d = %s:\nerror %v\nwant %s alone", c.line, c.repl, err, c.want)
		}
	}
}

// TestPurposeLTSErrorsOnce: a mistake in an action set is reported once,
// with no follow-on error: the locations of its transition are still the
// purpose's, a guard on the known actions of the set is still read, an
// unknown name listed twice is one mistake.
func TestPurposeLTSErrorsOnce(t *testing.T) {
	const head = "kind: purpose\nname: p\nvariables: {}\ninitial: {location: q0}\naccept: [qf]\nwhere: {q1: \"TryCounter != 0\"}\ntransitions:\n"
	for _, c := range []struct {
		transitions string
		want        []string
	}{
		{"  - {from: q0, action: [Jump, Jump], guard: \"n > 0\", to: q1}\n  - {from: q1, action: {except: [Hop]}, to: qf}\n",
			[]string{"p.yaml:8:25: unknown action Jump in the action set", "p.yaml:9:34: unknown action Hop in the except"}},
		{"  - {from: q0, action: [Enter, Entr], guard: \"n > 0\", to: q1}\n  - {from: q1, action: [], to: qf}\n",
			[]string{"p.yaml:8:32: unknown action Entr in the action set", "p.yaml:9:24: empty action set: a transition needs at least one action"}},
		{"  - {from: q0, action: {other: [Call]}, to: q1}\n  - {from: q1, action: {}, to: qf}\n",
			[]string{"p.yaml:8:25: unknown key other in action set (allowed: except)", "p.yaml:9:24: an action set is a list of actions or {except: [actions]}"}},
		{"  - {from: q0, action: {except: [Call, HangUp, Delay, Enter]}, to: q1}\n  - {from: q1, action: [Call, Call, Call], to: qf}\n",
			[]string{"p.yaml:8:24: the action set {except: [...]} is empty: it subtracts every action", "p.yaml:9:31: action Call is listed twice in the action set"}},
	} {
		_, err := loadLTS(t, head+c.transitions)
		var got []string
		if list, ok := err.(expr.ErrorList); ok {
			for _, e := range list {
				got = append(got, e.Error())
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.transitions, got, c.want)
		}
	}
}

// FuzzPurposeLTS: the purpose loader never panics on action sets and
// state predicates.
func FuzzPurposeLTS(f *testing.F) {
	f.Add(ltsPurpose)
	f.Add(edit(ltsPurpose, 9, "  - {from: q1, action: {except: {x: 1}}, to: q1}"))
	f.Add(edit(ltsPurpose, 10, "  - {from: q1, action: [Delay, [Enter]], to: q2}"))
	f.Add(edit(ltsPurpose, 6, "where: {q2: }"))
	s, err := ParseModel("s.yaml", []byte(ltsSpec), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ParseModel("p.yaml", []byte(src), s)
		if err == nil && m.Kind == spec.PurposeKind && m.LTS == nil {
			t.Errorf("a purpose without LTS")
		}
	})
}
