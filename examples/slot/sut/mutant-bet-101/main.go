// Command mutant-bet-101 is a slot machine whose interface forwards bets over 100 (examples/slot): the machine SM,
// or with the argument "system" the whole slot machine (see package impl).
package main

import "github.com/stg-tool/stg/examples/slot/sut/impl"

func main() { impl.Run(impl.Bet101) }
