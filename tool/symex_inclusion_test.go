package tool

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymexInclusionFunctions: with --inclusion, a spec whose functions
// have tables gets an answer, its calls uninterpreted, unless summaries
// are asked for, which restriction by inclusion refuses with the way
// out.
func TestSymexInclusionFunctions(t *testing.T) {
	microgrid := filepath.Join("..", "examples", "microgrid", "spec.yaml")
	var out, errOut bytes.Buffer
	if err := Symex(SymexOptions{Spec: microgrid, Inclusion: true, Stats: true, Format: "json"}, &out, &errOut); err != nil {
		t.Fatalf("inclusion, default functions: %v\n%s", err, errOut.String())
	}
	var st struct {
		Nodes          int  `json:"nodes"`
		CutByInclusion int  `json:"cut_by_inclusion"`
		BoundReached   bool `json:"bound_reached"`
	}
	if err := json.Unmarshal(out.Bytes(), &st); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if st.Nodes == 0 || st.CutByInclusion == 0 || st.BoundReached {
		t.Errorf("microgrid restricted by inclusion: %+v", st)
	}
	o := SymexOptions{Spec: microgrid, Inclusion: true, Stats: true}
	o.Tree.Functions = "summaries"
	err := Symex(o, &out, &errOut)
	if Code(err) != 3 || !strings.Contains(err.Error(), "--functions uninterpreted") {
		t.Errorf("inclusion with summaries asked for: %v", err)
	}
}
