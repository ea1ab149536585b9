package runner

import (
	"fmt"
	"math/big"

	"github.com/stg-tool/stg/adapter"

	"github.com/stg-tool/stg/spec/expr"
)

// cmpSUT implements the cmp spec of examples/cmp: it reads x, then y,
// then emits ok(y-x) when y-x >= 2 and nok(y-x) otherwise, then end.
// Its mutants deviate in the output.
type cmpSUT struct {
	mutant string // "", "wrong" (ok(y-x+1)), "silent" (no output), "nok" (always nok)
	state  int
	x      *big.Int
}

func (s *cmpSUT) Input(action string, args map[string]expr.Value) ([]adapter.Output, error) {
	if action != "in" {
		return nil, fmt.Errorf("cmp: unknown input %s", action)
	}
	p := args["p"].Int
	if s.state == 0 {
		s.x, s.state = p, 1
		return nil, nil
	}
	s.state = 0
	d := new(big.Int).Sub(p, s.x)
	switch s.mutant {
	case "silent":
		return nil, nil
	case "wrong":
		d.Add(d, big.NewInt(1))
		return []adapter.Output{{Action: "ok", Args: map[string]any{"p": d}}, {Action: "end"}}, nil
	case "nok":
		return []adapter.Output{{Action: "nok", Args: map[string]any{"p": d}}, {Action: "end"}}, nil
	}
	if d.Cmp(big.NewInt(2)) >= 0 {
		return []adapter.Output{{Action: "ok", Args: map[string]any{"p": d}}, {Action: "end"}}, nil
	}
	return []adapter.Output{{Action: "nok", Args: map[string]any{"p": d}}, {Action: "end"}}, nil
}

// detourSUT implements the SUT of testdata/detour.yaml: it emits done
// after step(1), step(2), step(3) in a row.
type detourSUT struct {
	k   int
	inD bool
}

func (s *detourSUT) Input(action string, args map[string]expr.Value) ([]adapter.Output, error) {
	switch action {
	case "step":
		if args["p"].Int.Cmp(big.NewInt(int64(s.k+1))) == 0 {
			s.k++
			if s.k == 3 {
				return []adapter.Output{{Action: "done"}}, nil
			}
		} else {
			s.k = 0
		}
	case "skip":
		if s.inD {
			s.k = 0
		}
		s.inD = !s.inD
	default:
		return nil, fmt.Errorf("detour: unknown input %s", action)
	}
	return nil, nil
}
