// Mutant of examples/atm-paper/sut/correct: the cashFee branch withdraws x without the fee of 1.
package main

import "github.com/stg-tool/stg/examples/atm-paper/sut/impl"

func main() { impl.Run(impl.NoFee) }
