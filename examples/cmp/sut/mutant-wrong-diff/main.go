// Mutant of examples/cmp/sut/correct: answers x-y instead of y-x (wrong value).
package main

import "github.com/stg-tool/stg/examples/cmp/sut/impl"

func main() { impl.Run(impl.WrongDiff) }
