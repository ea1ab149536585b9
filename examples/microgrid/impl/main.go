// Command impl is the reference implementation of the microgrid's
// external functions as a command speaking the JSON Lines protocol of
// package extfunc: impl INTGR serves INTGR, impl RISE serves RISE
// (package funcs). impl/microgrid.py is the same in Python, the one the
// spec names (it starts faster than go run).
package main

import (
	"fmt"
	"os"

	"github.com/stg-tool/stg/examples/microgrid/funcs"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: impl INTGR|RISE")
		os.Exit(2)
	}
	if err := funcs.Serve(os.Args[1], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "impl:", err)
		os.Exit(1)
	}
}
