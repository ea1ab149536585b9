// Mutant of examples/cmp/sut/correct: never sends end after the answer (unexpected quiescence).
package main

import "github.com/stg-tool/stg/examples/cmp/sut/impl"

func main() { impl.Run(impl.NoEnd) }
