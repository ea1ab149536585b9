// Command correct is the microgrid controller of examples/microgrid: it
// implements examples/microgrid/spec.yaml: the controller as reconstructed, with the reference INTGR and RISE.
package main

import "github.com/stg-tool/stg/examples/microgrid/sut/impl"

func main() { impl.Run(impl.Correct) }
