// Command mutant-no-reset-on-entry is Qui-Donc with a fault: a listed number answered does not reset the try counter.
package main

import "github.com/stg-tool/stg/examples/quidonc/sut/impl"

func main() { impl.Run(impl.NoResetOnEntry) }
