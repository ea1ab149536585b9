// Mutant of examples/atm/sut/correct: pays out a third withdrawal after a deposit (off-by-one in cp <= 2).
package main

import "github.com/stg-tool/stg/examples/atm/sut/impl"

func main() { impl.Run(impl.ThirdWithdrawal) }
