// Command mutant-off-by-one implements examples/jobs/spec.yaml: a job server that answers 2n instead of 2n + 1.
package main

import "github.com/stg-tool/stg/examples/jobs/sut/impl"

func main() { impl.Run(impl.OffByOne) }
