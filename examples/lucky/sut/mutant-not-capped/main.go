// Command mutant-not-capped runs examples/lucky/sut/impl with the fault NotCapped
// (see impl.Fault).
package main

import "github.com/stg-tool/stg/examples/lucky/sut/impl"

func main() { impl.Run(impl.NotCapped) }
