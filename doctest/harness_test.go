package doctest

import (
	"regexp"
	"slices"
	"testing"
)

// The checks of the pages must fail when a page and its script disagree;
// these tests pin down the pieces they are built from.

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`stg run tc.yaml -- ./sut`, []string{"stg", "run", "tc.yaml", "--", "./sut"}},
		{`STG_SLOT_WIN=true stg run p.yaml --seed 1 -- ./sm    # exit 1`, []string{"stg", "run", "p.yaml", "--seed", "1", "--", "./sm"}},
		{`stg run p.yaml --impl 'RISE=sh -c "echo dying >&2; exit 3"' -- ./mg`, []string{"stg", "run", "p.yaml", "--impl", `RISE=sh -c "echo dying >&2; exit 3"`, "--", "./mg"}},
		{`grep "a \"b\"" f`, []string{"grep", `a "b"`, "f"}},
		{`echo a\ b c#d`, []string{"echo", "a b", "c#d"}},
	} {
		if got := shellWords(c.line); !slices.Equal(got, c.want) {
			t.Errorf("shellWords(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestScriptWords(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`exec stg check x.yaml # why`, []string{"exec", "stg", "check", "x.yaml"}},
		{`status 3 stg run p.yaml --impl 'RISE=sh -c "echo dying >&2; exit 3"' -- ./mg`, []string{"status", "3", "stg", "run", "p.yaml", "--impl", `RISE=sh -c "echo dying >&2; exit 3"`, "--", "./mg"}},
		{`stdout 'it''s'`, []string{"stdout", "it's"}},
	} {
		if got := scriptWords(c.line); !slices.Equal(got, c.want) {
			t.Errorf("scriptWords(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestCompareLines(t *testing.T) {
	golden := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		shown []string
		ok    bool
	}{
		{nil, true},
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"a", "b", "c"}, false},           // a page without ... shows all
		{[]string{"a", "B", "c", "d"}, false},      // a changed line
		{[]string{"a", "...", "d"}, true},          // elided
		{[]string{"...", "c", "b", "..."}, false},  // out of order
		{[]string{"...", "x", "..."}, false},       // a line the output lacks
		{[]string{"a", "b", "c", "d", "e"}, false}, // a line too many
	} {
		msg := compareLines(c.shown, golden)
		if (msg == "") != c.ok {
			t.Errorf("compareLines(%q): %q, want ok=%v", c.shown, msg, c.ok)
		}
	}
}

func TestCheckOutputPatterns(t *testing.T) {
	s := scripted{patterns: []*regexp.Regexp{regexp.MustCompile(`^verdict: Pass .* seed 4$`)}}
	if msg := checkOutput([]string{"...", "verdict: Pass (x) seed 4", "..."}, s); msg != "" {
		t.Errorf("a line the pattern matches: %s", msg)
	}
	if msg := checkOutput([]string{"verdict: Pass (x) seed 5"}, s); msg == "" {
		t.Errorf("a line no pattern matches passed")
	}
}

func TestShownCommands(t *testing.T) {
	page := "text\n\n```\n$ stg a \\\n  b\nout 1\n...\n$ stg c\n```\n\n  ```\n  $ stg d\n    indented\n  ```\n"
	got := shownCommands("p.md", page)
	if len(got) != 3 {
		t.Fatalf("got %d commands, want 3: %+v", len(got), got)
	}
	if !slices.Equal(got[0].args, []string{"stg", "a", "b"}) || !slices.Equal(got[0].output, []string{"out 1", "..."}) {
		t.Errorf("first command: %+v", got[0])
	}
	if got[1].where != "p.md:8" || len(got[1].output) != 0 {
		t.Errorf("second command: %+v", got[1])
	}
	if !slices.Equal(got[2].output, []string{"  indented"}) {
		t.Errorf("the fence's indentation is not stripped: %q", got[2].output)
	}
}

func TestHeadingAnchors(t *testing.T) {
	a := headingAnchors("# Top\n## 30-second example\n```\n# not a heading\n```\n## Systems of components (`kind: system`)\n## Top\n")
	for _, want := range []string{"top", "30-second-example", "systems-of-components-kind-system", "top-1"} {
		if !a[want] {
			t.Errorf("no anchor %q in %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Errorf("a comment in code is read as a heading")
	}
}
