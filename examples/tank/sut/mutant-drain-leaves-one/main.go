// Command mutant-drain-leaves-one is the tank with a fault: a drain leaves 1 litre.
package main

import "github.com/stg-tool/stg/examples/tank/sut/impl"

func main() { impl.Run(impl.DrainLeavesOne) }
