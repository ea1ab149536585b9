// Mutant of examples/buffer/sut/correct: a get on the empty buffer answers nothing (missing empty: unexpected quiescence).
package main

import "github.com/stg-tool/stg/examples/buffer/sut/impl"

func main() { impl.Run(impl.SilentEmpty) }
