// Mutant of examples/atm-paper/sut/correct: pays cash(x-1) when it withdraws x.
package main

import "github.com/stg-tool/stg/examples/atm-paper/sut/impl"

func main() { impl.Run(impl.WrongAmount) }
