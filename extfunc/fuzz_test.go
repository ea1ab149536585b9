package extfunc

import (
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// FuzzReply: any reply line gives a value of the result type or an
// error, never a panic.
func FuzzReply(f *testing.F) {
	for _, s := range []string{`{"result":228}`, `{"result":"7/2"}`, `{"result":0.97}`, `{"error":"x"}`,
		`{"result":true}`, `{"result":"alarm"}`, `{}`, `hello`, `{"result":1e99999}`, `{"result":[[1]]}`, ``, `{"result":1}{}`} {
		f.Add(s)
	}
	e := &expr.Enum{Name: "Msg", Values: []string{"ok", "alarm"}}
	types := []expr.Type{expr.IntType, expr.RealType, expr.BoolType, expr.EnumType(e)}
	f.Fuzz(func(t *testing.T, line string) {
		for _, ty := range types {
			v, err := decodeReply([]byte(line), ty)
			if err == nil && v.T != ty {
				t.Fatalf("%q as %s gave %s of type %s", line, ty, v, v.T)
			}
		}
	})
}
