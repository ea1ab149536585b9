// Mutant of examples/atm-paper/sut/correct: pays cash for a third withdrawal after a deposit (cp == 3).
package main

import "github.com/stg-tool/stg/examples/atm-paper/sut/impl"

func main() { impl.Run(impl.ThirdWithdrawalPaid) }
