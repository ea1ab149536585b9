// Mutant of examples/atm-paper/sut/correct: charges the fee when m <= 1000 instead of m < 1000 (off-by-one).
package main

import "github.com/stg-tool/stg/examples/atm-paper/sut/impl"

func main() { impl.Run(impl.FeeAt1000) }
