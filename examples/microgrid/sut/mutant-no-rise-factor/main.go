// Command mutant-no-rise-factor is the microgrid controller of examples/microgrid: it
// prices I instead of (1+r)·I after RISE.
package main

import "github.com/stg-tool/stg/examples/microgrid/sut/impl"

func main() { impl.Run(impl.NoRiseFactor) }
