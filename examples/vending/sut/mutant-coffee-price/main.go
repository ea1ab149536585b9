// Mutant of examples/vending/sut/correct: coffee costs 50 instead of 60 (wrong constant: served too early, wrong change).
package main

import "github.com/stg-tool/stg/examples/vending/sut/impl"

func main() { impl.Run(impl.CoffeePrice) }
