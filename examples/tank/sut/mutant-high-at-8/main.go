// Command mutant-high-at-8 is the tank with a fault: the gauge says high from 8 litres.
package main

import "github.com/stg-tool/stg/examples/tank/sut/impl"

func main() { impl.Run(impl.HighAt8) }
