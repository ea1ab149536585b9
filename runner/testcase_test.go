package runner

import (
	"strings"
	"testing"
)

func TestTestcaseModelErrors(t *testing.T) {
	tc := Testcase{
		Name:      "bad",
		Variables: []Decl{{"x", "int"}, {"r", "real"}},
		Actions:   []ActionDecl{{Name: "a", Dir: "send", Params: []Decl{{"p", "nat"}}}, {Name: "b", Dir: "sideways"}},
		Initial:   "A",
		Pass:      []string{"Pass"},
		Transitions: []TransitionDecl{
			{From: "A", Action: "a", Guard: "p > ", To: "B"},
			{From: "A", Action: "c", To: "B"},
			{From: "A", Action: "b", Assign: []Assignment{{"r", "x"}}, To: "B"},
			{From: "Pass", Action: "b", To: "A"},
		},
	}
	_, err := tc.Model()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`unknown type "nat"`, `unknown dir "sideways"`, "syntax error", "unknown action c", "cannot assign x (type int) to r (type real)", "verdict location Pass"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the errors lack %q:\n%v", want, err)
		}
	}
}
