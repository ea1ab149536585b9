// Mutant of examples/buffer/sut/correct: get returns the newest value instead of the oldest (a stack, not a queue).
package main

import "github.com/stg-tool/stg/examples/buffer/sut/impl"

func main() { impl.Run(impl.LIFO) }
