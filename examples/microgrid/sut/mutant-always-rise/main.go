// Command mutant-always-rise is the microgrid controller of examples/microgrid: it
// calls RISE whatever I, pricing (1+r)·I also when I <= 200.
package main

import "github.com/stg-tool/stg/examples/microgrid/sut/impl"

func main() { impl.Run(impl.AlwaysRise) }
