package expr

import (
	"strings"
	"testing"
)

func strTestScope() *Scope {
	return &Scope{Vars: map[string]Type{"s": StringType, "t": StringType, "i": IntType, "x": IntType}}
}

func TestStringExprs(t *testing.T) {
	env := Valuation{Vars: map[string]Value{
		"s": StringValue("Alice"), "t": StringValue("Ab"), "i": IntValue(bigInt(1)), "x": IntValue(bigInt(9)),
	}}
	for _, tt := range []struct{ src, want, printed string }{
		{`s + "!"`, `"Alice!"`, ""},
		{`len(s) + len("é")`, `7`, ""},
		{`s[0] == t[0]`, `true`, ""},
		{`s[i:3]`, `"li"`, ""},
		{`s[:2] + s[3:]`, `"Alce"`, `s[0:2] + s[3:len(s)]`},
		{`strings.HasPrefix(s, "Al") && strings.HasSuffix(s, "ce") && strings.Contains(s, "lic")`, `true`, ""},
		{`strings.Index(s, "i") + strings.Index(s, "z")`, `1`, ""},
		{`t < s && s >= "Al" && s != t`, `true`, ""},
		{`regexp.MatchString("^[A-Z][a-z]*$", s) && !regexp.MatchString("^[A-Z][a-z]*$", t + "1")`, `true`, `regexp.MatchString(` + "`^[A-Z][a-z]*$`" + `, s) && !regexp.MatchString(` + "`^[A-Z][a-z]*$`" + `, t + "1")`},
		{"`a\\b` + \"\\n\"", `"a\\b\n"`, ""},
		{`ite(x > 3, s, t)[0:1]`, `"A"`, ""},
		{`s[x]`, `""`, ""}, // out of range: str.at gives "" (and the guard's bound is false)
	} {
		e, _, err := ParseGuarded(tt.src, Pos{}, strTestScope())
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		v, err := Eval(e, env)
		if err != nil || v.String() != tt.want {
			t.Errorf("%s = %v, %v, want %s", tt.src, v, err, tt.want)
		}
		printed := Format(e)
		if tt.printed != "" && printed != tt.printed {
			t.Errorf("%s prints as %s, want %s", tt.src, printed, tt.printed)
		}
		back, _, err := ParseGuarded(printed, Pos{}, strTestScope())
		if err != nil || !Equal(back, e) {
			t.Errorf("%s prints as %s, which reads back as %v (%v)", tt.src, printed, back, err)
		}
	}
}

func TestStringBounds(t *testing.T) {
	e, err := Parse(`s[i] == "a" && s[1:x] != ""`, Pos{}, strTestScope())
	if err != nil {
		t.Fatal(err)
	}
	want := `s[i] == "a" && s[1:x] != "" && 0 <= i && i < len(s) && 1 <= x && x <= len(s)`
	if got := Format(e); got != want {
		t.Errorf("guard %s, want %s", got, want)
	}
}

func TestStringErrors(t *testing.T) {
	base := Pos{File: "m.yaml", Line: 3, Col: 10}
	for _, tt := range []struct {
		src string
		col int
		msg string
	}{
		{`s + 1`, 2, "mismatched types string and int"},
		{`s - t`, 2, "operator - not defined on s (type string)"},
		{`len(x)`, 4, "len is defined on strings, not x (type int)"},
		{`len(s, t)`, 0, "len takes 1 argument"},
		{`strings.ToUpper(s)`, 0, "strings.ToUpper is not a built-in"},
		{`strings.HasPrefix(s, 1)`, 21, "argument 2 of strings.HasPrefix has type int, want string"},
		{`regexp.MatchString(t, s)`, 19, "must be a string literal"},
		{`regexp.MatchString("a\\bc", s)`, 21, `word boundaries \b and \B are not supported in pattern`},
		{"regexp.MatchString(`(?i)x`, s)", 20, `flag group "(?i)" is not supported`},
		{"regexp.MatchString(`a(`, s)", 20, `missing closing )`},
		{`s[t]`, 2, "index t of a string has type string, want int"},
		{`x[0]`, 0, "indexing is allowed on array variables and strings only"},
		{`x[0:1]`, 0, "slicing is allowed on strings only"},
		{`s[0:1:2]`, 0, "3-index slice"},
		{`'a' == s`, 0, "not allowed"},
	} {
		_, err := Parse(tt.src, base, strTestScope())
		if err == nil {
			t.Errorf("Parse(%s) succeeded, want %s", tt.src, tt.msg)
			continue
		}
		got := err.(ErrorList)[0].Error()
		want := "m.yaml:3:" + itoa(base.Col+tt.col) + ": "
		if !strings.HasPrefix(got, want) || !strings.Contains(got, tt.msg) {
			t.Errorf("Parse(%s) = %q, want %q...%q", tt.src, got, want, tt.msg)
		}
	}
}

func itoa(n int) string { return Value{T: IntType, Int: bigInt(n)}.String() }
