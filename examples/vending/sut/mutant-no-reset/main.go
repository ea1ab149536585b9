// Command mutant-no-reset implements examples/vending/spec.yaml but for a
// missing reset: neither cancel nor choose clears the money paid, so after
// a cancel the next drink is served too early.
package main

import "github.com/stg-tool/stg/examples/vending/sut/impl"

func main() { impl.Run(impl.NoReset) }
