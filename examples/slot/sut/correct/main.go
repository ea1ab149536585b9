// Command correct is the reference slot machine (examples/slot): the machine SM,
// or with the argument "system" the whole slot machine (see package impl).
package main

import "github.com/stg-tool/stg/examples/slot/sut/impl"

func main() { impl.Run(impl.Correct) }
