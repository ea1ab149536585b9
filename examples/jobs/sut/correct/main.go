// Command correct implements examples/jobs/spec.yaml: the reference job server.
package main

import "github.com/stg-tool/stg/examples/jobs/sut/impl"

func main() { impl.Run(impl.Correct) }
