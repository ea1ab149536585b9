// Command pkggraph prints the package graph of the stg module, for
// docs/architecture.md: each package (examples, internal helpers and
// test-only packages left out) with its non-test lines of Go and the
// module packages it imports, grouped in layers: a package's layer is
// one more than the highest layer it imports, so arrows only go down.
//
//	go run ./internal/pkggraph
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pkggraph:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	mod, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return err
	}
	prefix := strings.TrimSpace(string(mod)) + "/"
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		return err
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return err
		}
		name := strings.TrimPrefix(p.ImportPath, prefix)
		if skipped(name) || len(p.GoFiles)+len(p.CgoFiles) == 0 {
			continue
		}
		pkgs[name] = &p
	}
	layers := layer(pkgs, prefix)
	return print(w, pkgs, layers, prefix)
}

func skipped(name string) bool {
	return strings.HasPrefix(name, "examples") || strings.HasPrefix(name, "internal/") || name == "e2e" || name == "doctest"
}

// deps returns the module packages p imports that are in the graph.
func deps(p *pkg, pkgs map[string]*pkg, prefix string) []string {
	var ds []string
	for _, i := range p.Imports {
		if d, ok := strings.CutPrefix(i, prefix); ok && pkgs[d] != nil {
			ds = append(ds, d)
		}
	}
	slices.Sort(ds)
	return ds
}

// layer returns each package's layer: 0 for one that imports none of the
// module's, else one more than the highest of its imports.
func layer(pkgs map[string]*pkg, prefix string) map[string]int {
	ls := map[string]int{}
	var of func(string) int
	of = func(n string) int {
		if l, ok := ls[n]; ok {
			return l
		}
		l := 0
		for _, d := range deps(pkgs[n], pkgs, prefix) {
			l = max(l, of(d)+1)
		}
		ls[n] = l
		return l
	}
	for n := range pkgs {
		of(n)
	}
	return ls
}

func print(w io.Writer, pkgs map[string]*pkg, ls map[string]int, prefix string) error {
	names := make([]string, 0, len(pkgs))
	for n := range pkgs {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if ls[a] != ls[b] {
			return ls[a] - ls[b]
		}
		return strings.Compare(a, b)
	})
	total, big, bigName := 0, 0, ""
	last := -1
	for _, n := range names {
		if ls[n] != last {
			last = ls[n]
			fmt.Fprintf(w, "layer %d\n", last)
		}
		lines, err := count(pkgs[n])
		if err != nil {
			return err
		}
		total += lines
		if lines > big {
			big, bigName = lines, n
		}
		fmt.Fprintf(w, "  %-12s %5d  -> %s\n", n, lines, strings.Join(deps(pkgs[n], pkgs, prefix), " "))
	}
	fmt.Fprintf(w, "%d packages, %d lines; the biggest: %s (%d)\n", len(names), total, bigName, big)
	return nil
}

// count returns the lines of p's non-test Go files.
func count(p *pkg) (int, error) {
	n := 0
	for _, f := range append(slices.Clone(p.GoFiles), p.CgoFiles...) {
		fh, err := os.Open(filepath.Join(p.Dir, f))
		if err != nil {
			return 0, err
		}
		s := bufio.NewScanner(fh)
		for s.Scan() {
			n++
		}
		fh.Close()
	}
	return n, nil
}
