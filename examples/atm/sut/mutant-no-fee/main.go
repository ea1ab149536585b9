// Mutant of examples/atm/sut/correct: never charges the fee of 1 below 1000 (wrong balance).
package main

import "github.com/stg-tool/stg/examples/atm/sut/impl"

func main() { impl.Run(impl.NoFee) }
