// Mutant of examples/cmp/sut/correct: answers ok only when y-x >= 3 (off-by-one in the guard p >= 2).
package main

import "github.com/stg-tool/stg/examples/cmp/sut/impl"

func main() { impl.Run(impl.OkThreshold) }
