// Mutant of examples/buffer/sut/correct: status says filled with 2 values (wrong bound in the level).
package main

import "github.com/stg-tool/stg/examples/buffer/sut/impl"

func main() { impl.Run(impl.LevelOffByOne) }
