// Command correct implements examples/retry/spec.yaml: a sender that
// retransmits a frame on timeout and gives up after 3 attempts.
package main

import "github.com/stg-tool/stg/examples/retry/sut/impl"

func main() { impl.Run(impl.Correct) }
