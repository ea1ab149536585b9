// Mutant of examples/atm/sut/correct: writes "no money" to stderr instead of sending noMoney (unexpected quiescence).
package main

import "github.com/stg-tool/stg/examples/atm/sut/impl"

func main() { impl.Run(impl.SilentRefusal) }
