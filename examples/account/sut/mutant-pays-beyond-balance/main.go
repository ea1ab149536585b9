// Command mutant-pays-beyond-balance implements examples/account/spec.yaml with
// one fault: it pays a withdrawal the balance does not cover.
package main

import "github.com/stg-tool/stg/examples/account/sut/impl"

func main() { impl.Run(impl.PaysBeyondBalance) }
