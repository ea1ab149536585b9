package exampleprog

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	Main(map[string]string{"alias": "./examples/cmp/sut/mutant-wrong-diff"})
	os.Exit(m.Run())
}

// TestEveryProgram: Programs holds exactly the programs under
// examples/*/sut/ (the directories with a main.go), under distinct names.
func TestEveryProgram(t *testing.T) {
	mains, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "sut", "*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range mains {
		rel, err := filepath.Rel(filepath.Join("..", ".."), filepath.Dir(m))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, "./"+filepath.ToSlash(rel))
	}
	var got []string
	names := map[string]string{}
	for p := range Programs() {
		got = append(got, p)
		if q, dup := names[Name(p)]; dup {
			t.Errorf("%s and %s are both named %s", p, q, Name(p))
		}
		names[Name(p)] = p
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) || len(want) < 40 {
		t.Errorf("programs %v, want those with a main.go: %v", got, want)
	}
}

// TestLinkRuns plays a conversation with a linked program, under its
// own name and under an alias: the first runs the correct comparator,
// the second the mutant with the wrong difference.
func TestLinkRuns(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, pkg, want string }{
		{"", "./examples/cmp/sut/correct", `{"action":"ok","args":{"p":3}}`},
		{"alias", "./examples/cmp/sut/mutant-wrong-diff", `{"action":"nok","args":{"p":-3}}`},
	} {
		bin, err := Link(dir, tt.name, tt.pkg)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin)
		cmd.Stdin = strings.NewReader(`{"action":"in","args":{"p":1}}` + "\n" + `{"action":"in","args":{"p":4}}` + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", bin, err)
		}
		if first, _, _ := strings.Cut(string(out), "\n"); first != tt.want {
			t.Errorf("%s: %q, want first %s", bin, out, tt.want)
		}
	}
	if _, err := Link(dir, "", "./examples/nope/sut/correct"); err == nil {
		t.Error("Link of no example program: no error")
	}
}
