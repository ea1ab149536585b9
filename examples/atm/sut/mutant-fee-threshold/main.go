// Mutant of examples/atm/sut/correct: also charges the fee when the account holds exactly 1000 (off-by-one in m < 1000).
package main

import "github.com/stg-tool/stg/examples/atm/sut/impl"

func main() { impl.Run(impl.FeeThreshold) }
