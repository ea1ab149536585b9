// Command correct implements examples/tank/spec.yaml: a tank with a gauge.
package main

import "github.com/stg-tool/stg/examples/tank/sut/impl"

func main() { impl.Run(impl.Correct) }
