package compose

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// FuzzBuild: any structure over the slot machine's components that
// loads composes, flattens or reports an error, without a panic.
func FuzzBuild(f *testing.F) {
	dir := f.TempDir()
	for _, n := range []string{"int.yaml", "sm.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", "slot", n))
		if err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), data, 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for _, s := range []string{"Hide([int_start, int_bet, int_win, int_amount, int_cash], Int * SM)", "SM * Int", "Hide([bet], Int) * SM", "Hide([int_bet], Hide([int_win], SM * Int))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, structure string) {
		src := "kind: system\nname: f\ncomponents: {Int: int.yaml, SM: sm.yaml}\nstructure: " + structure + "\n"
		sys, err := specfile.ParseSystem(filepath.Join(dir, "s.yaml"), []byte(src))
		if err != nil {
			return
		}
		g, err := Build(sys)
		if err != nil {
			t.Fatalf("%s: %v", structure, err)
		}
		if _, err := g.Model(sys.Name, sys.File); err != nil {
			if _, ok := err.(expr.ErrorList); !ok {
				t.Fatalf("%s: %v is not a positioned error", structure, err)
			}
		}
	})
}
