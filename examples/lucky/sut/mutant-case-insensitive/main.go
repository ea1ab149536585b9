// Command mutant-case-insensitive runs examples/lucky/sut/impl with the fault CaseInsensitive
// (see impl.Fault).
package main

import "github.com/stg-tool/stg/examples/lucky/sut/impl"

func main() { impl.Run(impl.CaseInsensitive) }
