// Command mutant-poke-miscounts implements examples/jobs/spec.yaml: a job server whose poked results do not count themselves.
package main

import "github.com/stg-tool/stg/examples/jobs/sut/impl"

func main() { impl.Run(impl.PokeMiscounts) }
