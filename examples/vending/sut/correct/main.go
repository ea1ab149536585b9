// Command correct implements examples/vending/spec.yaml: tea costs 40,
// coffee 60; coins of 10, 20 and 50; change is paid - price.
package main

import "github.com/stg-tool/stg/examples/vending/sut/impl"

func main() { impl.Run(impl.Correct) }
