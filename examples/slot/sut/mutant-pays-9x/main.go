// Command mutant-pays-9x is a slot machine that pays 9 times the bet (examples/slot): the machine SM,
// or with the argument "system" the whole slot machine (see package impl).
package main

import "github.com/stg-tool/stg/examples/slot/sut/impl"

func main() { impl.Run(impl.Pays9x) }
