// Package ring writes the ring family of the generation benchmarks
// (issues 15 and 25): a ring of N stages over K = 4 integer variables
// a, b, c and s. Stage i reads an input p in [0, 100] into a, b or c (by
// turns) and records i in s; the SUT then answers out(r) by one of two
// branches whose guards relate the variables: r == a + b && r < 150, or
// r >= 150. The purpose accepts the answer 170 of the last stage, which
// only the second branch allows.
package ring

import (
	"fmt"
	"strings"
)

// Spec returns the text of the ring's spec with n stages (n >= 1).
func Spec(n int) string {
	var b strings.Builder
	b.WriteString("kind: spec\nname: ring2\nvariables: {a: int, b: int, c: int, s: int}\n")
	b.WriteString("actions:\n  in: {dir: input, params: {p: int}}\n  out: {dir: output, params: {r: int}}\n")
	b.WriteString("initial: {location: S0, condition: \"a == 0 && b == 0 && c == 0 && s == 0\"}\ntransitions:\n")
	for i := 0; i < n; i++ {
		v, j := "abc"[i%3:i%3+1], (i+1)%n
		fmt.Fprintf(&b, "  - {from: S%d, action: in, guard: \"p >= 0 && p <= 100\", assign: {%s: p, s: %d}, to: R%d}\n", i, v, i, i)
		fmt.Fprintf(&b, "  - {from: R%d, action: out, guard: \"r == a + b && r < 150\", to: S%d}\n", i, j)
		fmt.Fprintf(&b, "  - {from: R%d, action: out, guard: \"r >= 150\", to: S%d}\n", i, j)
	}
	return b.String()
}

// Purpose returns the text of the ring's purpose with n stages: accept
// out(170) at the last stage.
func Purpose(n int) string {
	return fmt.Sprintf(`kind: purpose
name: big
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: out, guard: "s == %d && r == 170", to: A}
`, n-1)
}
