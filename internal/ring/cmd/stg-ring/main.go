// Command stg-ring writes the ring family's spec and purpose of N
// stages (package ring) into a directory, as DIR/ring-N.yaml and
// DIR/ring-N-purpose.yaml, for timing stg generate:
//
//	go run ./internal/ring/cmd/stg-ring -dir /tmp/ring 400 1600 3200
//	stg generate /tmp/ring/ring-3200.yaml /tmp/ring/ring-3200-purpose.yaml
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stg-tool/stg/internal/ring"
)

func main() {
	dir := flag.String("dir", ".", "write the files into `DIR`")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: stg-ring [-dir DIR] N...")
		os.Exit(2)
	}
	for _, a := range flag.Args() {
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "stg-ring: %q is not a positive number of stages\n", a)
			os.Exit(2)
		}
		if err := write(*dir, n); err != nil {
			fmt.Fprintln(os.Stderr, "stg-ring:", err)
			os.Exit(1)
		}
	}
}

func write(dir string, n int) error {
	s := filepath.Join(dir, fmt.Sprintf("ring-%d.yaml", n))
	p := filepath.Join(dir, fmt.Sprintf("ring-%d-purpose.yaml", n))
	if err := os.WriteFile(s, []byte(ring.Spec(n)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(ring.Purpose(n)), 0o644)
}
