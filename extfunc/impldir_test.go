package extfunc

import (
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// TestImplDir: a function's dir: (expr.Func.ImplDir) is where its
// command runs, relative to Options.Dir unless absolute.
func TestImplDir(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "while read l; do echo '{\"result\":7}'; done\n"
	if err := os.WriteFile(filepath.Join(sub, "answer.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, implDir string }{{root, "sub"}, {t.TempDir(), sub}, {sub, ""}} {
		f := &expr.Func{Name: "F", Params: []expr.Type{expr.IntType}, Result: expr.IntType, Impl: "sh answer.sh", ImplDir: c.implDir}
		r, err := New([]*expr.Func{f}, Options{Dir: c.dir})
		if err != nil {
			t.Fatal(err)
		}
		v, err := r.Call("F", []expr.Value{expr.IntValue(big.NewInt(1))})
		if err != nil || v.Int.Int64() != 7 {
			t.Errorf("Dir %s, dir: %q: %v, %v", c.dir, c.implDir, v, err)
		}
		r.Close()
	}
	// Without dir:, in root, the script is not found: an error, not 7.
	f := &expr.Func{Name: "F", Params: []expr.Type{expr.IntType}, Result: expr.IntType, Impl: "sh answer.sh"}
	r, err := New([]*expr.Func{f}, Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if v, err := r.Call("F", []expr.Value{expr.IntValue(big.NewInt(1))}); err == nil {
		t.Errorf("run in %s: %v, want an error", root, v)
	}
}
