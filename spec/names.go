package spec

import "strconv"

// AutoName is the name of an unnamed transition t: FROM-ACTION-TO, with
// -2, -3, ... appended while taken says the name is in use. It is how
// symbolic execution names the steps of a path and how a system names
// the unnamed transitions of its components.
func AutoName(t *Transition, taken func(string) bool) string {
	base := t.From + "-" + t.Action + "-" + t.To
	name := base
	for k := 2; taken(name); k++ {
		name = base + "-" + strconv.Itoa(k)
	}
	return name
}
