// Package randsys writes random systems of components (kind: system,
// docs/model-language.md §6) for the property tests of compose and
// project: two or three components A, B (and C) over the channels c, d
// and e, each with a variable x, two locations, an internal action and
// two to four random transitions, composed by a random structure.
package randsys

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Options say what varies between the tests' systems.
type Options struct {
	// Structures2 and Structures3 are the structures drawn from for two
	// and for three components.
	Structures2, Structures3 []string
	// Params lists the channels that carry a parameter p: int.
	Params []string
	// ParamGuards and ParamAssigns are the guards and assignments drawn
	// from for an action with p, besides those of every action ("",
	// x > 0, x == 0; "", x := x + 1).
	ParamGuards, ParamAssigns []string
}

// Write writes a random system and its components into dir and returns
// the system file's path. Some systems do not load (a hidden channel
// that its part does not use): the tests draw again.
func Write(rng *rand.Rand, dir string, o Options) (string, error) {
	comps := []string{"A", "B"}
	if rng.Intn(3) == 0 {
		comps = append(comps, "C")
	}
	channels := []string{"c", "d", "e"}
	emitter := map[string]string{}
	for _, ch := range channels {
		emitter[ch] = comps[rng.Intn(len(comps))]
		if rng.Intn(3) == 0 {
			emitter[ch] = "" // inputs only
		}
	}
	var entries []string
	for _, c := range comps {
		if err := writeComponent(rng, dir, c, channels, emitter, o); err != nil {
			return "", err
		}
		entries = append(entries, fmt.Sprintf("%s: %s.yaml", c, strings.ToLower(c)))
	}
	structures := o.Structures2
	if len(comps) == 3 {
		structures = o.Structures3
	}
	sys := fmt.Sprintf("kind: system\nname: random\ncomponents: {%s}\nstructure: %q\n",
		strings.Join(entries, ", "), structures[rng.Intn(len(structures))])
	path := filepath.Join(dir, "system.yaml")
	return path, os.WriteFile(path, []byte(sys), 0o644)
}

// writeComponent writes component c: the channels in its alphabet (each
// one it does not emit left out with probability 1/4), its internal
// action, and random transitions.
func writeComponent(rng *rand.Rand, dir, c string, channels []string, emitter map[string]string, o Options) error {
	var acts, used []string
	hasParam := map[string]bool{}
	for _, ch := range o.Params {
		hasParam[ch] = true
	}
	for _, ch := range channels {
		if rng.Intn(4) == 0 && emitter[ch] != c {
			continue // not in this component's alphabet
		}
		d := "input"
		if emitter[ch] == c {
			d = "output"
		}
		ps := ""
		if hasParam[ch] {
			ps = ", params: {p: int}"
		}
		acts = append(acts, fmt.Sprintf("  %s: {dir: %s%s}", ch, d, ps))
		used = append(used, ch)
	}
	tau := "t" + strings.ToLower(c)
	acts = append(acts, fmt.Sprintf("  %s: {dir: internal}", tau))
	used = append(used, tau)
	var ts []string
	for k := 0; k < 2+rng.Intn(3); k++ {
		a := used[rng.Intn(len(used))]
		guards := []string{"", "x > 0", "x == 0"}
		assigns := []string{"", "x: x + 1"}
		if hasParam[a] {
			guards = append(guards, o.ParamGuards...)
			assigns = append(assigns, o.ParamAssigns...)
		}
		g, as := guards[rng.Intn(len(guards))], assigns[rng.Intn(len(assigns))]
		line := fmt.Sprintf("  - {name: %s%d, from: L%d, action: %s, to: L%d", strings.ToLower(c), k, rng.Intn(2), a, rng.Intn(2))
		if g != "" {
			line += fmt.Sprintf(", guard: %q", g)
		}
		if as != "" {
			line += ", assign: {" + as + "}"
		}
		ts = append(ts, line+"}")
	}
	src := fmt.Sprintf("kind: spec\nname: %s\nvariables: {x: int}\nactions:\n%s\ninitial: {location: L0}\nlocations: [L0, L1]\ntransitions:\n%s\n",
		c, strings.Join(acts, "\n"), strings.Join(ts, "\n"))
	return os.WriteFile(filepath.Join(dir, strings.ToLower(c)+".yaml"), []byte(src), 0o644)
}
