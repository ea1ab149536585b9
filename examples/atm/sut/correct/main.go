// Command correct implements examples/atm/spec.yaml, the ATM of Fig. 1 of the
// symbolic-execution paper: a fee of 1 below 1000, two withdrawals per deposit.
package main

import "github.com/stg-tool/stg/examples/atm/sut/impl"

func main() { impl.Run(impl.Correct) }
