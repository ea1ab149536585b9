// Command correct implements examples/buffer/spec.yaml: a FIFO buffer of
// capacity 3.
package main

import "github.com/stg-tool/stg/examples/buffer/sut/impl"

func main() { impl.Run(impl.Correct) }
