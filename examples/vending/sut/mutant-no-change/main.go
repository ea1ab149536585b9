// Mutant of examples/vending/sut/correct: serves the drink but keeps the change (missing output, unexpected quiescence).
package main

import "github.com/stg-tool/stg/examples/vending/sut/impl"

func main() { impl.Run(impl.NoChange) }
