// Mutant of examples/retry/sut/correct: takes an ack of an older frame for the current one (seq <= s instead of seq == s).
package main

import "github.com/stg-tool/stg/examples/retry/sut/impl"

func main() { impl.Run(impl.AcceptsStaleAck) }
