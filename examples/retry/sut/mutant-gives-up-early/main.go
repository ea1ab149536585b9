// Mutant of examples/retry/sut/correct: gives up after 2 attempts instead of 3 (off-by-one in n < 3).
package main

import "github.com/stg-tool/stg/examples/retry/sut/impl"

func main() { impl.Run(impl.GivesUpEarly) }
