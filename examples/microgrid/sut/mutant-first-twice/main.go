// Command mutant-first-twice is the microgrid controller of examples/microgrid: it
// never reads the second measurement: it integrates [v1, v1].
package main

import "github.com/stg-tool/stg/examples/microgrid/sut/impl"

func main() { impl.Run(impl.FirstTwice) }
