// Mutant of examples/vending/sut/correct: serves only when more than the price is paid (off-by-one in paid >= price).
package main

import "github.com/stg-tool/stg/examples/vending/sut/impl"

func main() { impl.Run(impl.StrictPrice) }
