// Command correct implements examples/atm-paper/spec.yaml, the ATM of
// Fig. 1 of the symbolic-execution paper exactly: a fee of 1 below 1000,
// two withdrawals per deposit. Its initial state comes from STG_ATM_M0,
// STG_ATM_CP0, STG_ATM_X0 and STG_ATM_T0 (0 when unset).
package main

import "github.com/stg-tool/stg/examples/atm-paper/sut/impl"

func main() { impl.Run(impl.Correct) }
