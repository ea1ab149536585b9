// Mutant of examples/retry/sut/correct: reports the number of retries (attempts - 1) instead of attempts (wrong value).
package main

import "github.com/stg-tool/stg/examples/retry/sut/impl"

func main() { impl.Run(impl.ReportRetries) }
