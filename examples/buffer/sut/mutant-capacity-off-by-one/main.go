// Mutant of examples/buffer/sut/correct: accepts a fourth value (len(q) <= capacity instead of <): stored instead of full.
package main

import "github.com/stg-tool/stg/examples/buffer/sut/impl"

func main() { impl.Run(impl.CapacityOffByOne) }
