// Mutant of examples/retry/sut/correct: reuses the sequence number of a message it gave up on (wrong seq in the next frame).
package main

import "github.com/stg-tool/stg/examples/retry/sut/impl"

func main() { impl.Run(impl.SeqKeptAfterFailure) }
