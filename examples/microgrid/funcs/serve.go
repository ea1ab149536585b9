package funcs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// Serve answers the JSON Lines requests of package extfunc for the
// function name ("INTGR" or "RISE") on in, one reply line per request
// line on out: {"args":[[123,96]]} → {"result":228}, {"args":[228]} →
// {"result":"97/100"}. A request it cannot read gets {"error": "..."}.
func Serve(name string, in io.Reader, out io.Writer) error {
	if name != "INTGR" && name != "RISE" {
		return fmt.Errorf("unknown function %q: want INTGR or RISE", name)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		reply := answer(name, line)
		b, err := json.Marshal(reply)
		if err != nil {
			return err
		}
		if _, err := out.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

// answer computes the reply to one request.
func answer(name, line string) map[string]any {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var req struct{ Args []any }
	if err := dec.Decode(&req); err != nil {
		return map[string]any{"error": "bad request: " + err.Error()}
	}
	bad := func() map[string]any {
		return map[string]any{"error": fmt.Sprintf("bad arguments %v for %s", req.Args, name)}
	}
	if len(req.Args) != 1 {
		return bad()
	}
	if name == "RISE" {
		i, ok := integer(req.Args[0])
		if !ok {
			return bad()
		}
		r := Rise(i)
		if r.IsInt() {
			return map[string]any{"result": json.Number(r.Num().String())}
		}
		return map[string]any{"result": r.RatString()}
	}
	cells, ok := req.Args[0].([]any)
	if !ok || len(cells) != 2 {
		return bad()
	}
	a, ok1 := integer(cells[0])
	b, ok2 := integer(cells[1])
	if !ok1 || !ok2 {
		return bad()
	}
	return map[string]any{"result": json.Number(Intgr(a, b).String())}
}

func integer(x any) (*big.Int, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Int).SetString(string(n), 10)
}
