// Command mutant-accepts-invalid runs examples/lucky/sut/impl with the fault AcceptsInvalid
// (see impl.Fault).
package main

import "github.com/stg-tool/stg/examples/lucky/sut/impl"

func main() { impl.Run(impl.AcceptsInvalid) }
