// Mutant of examples/vending/sut/correct: on cancel gives back only the last coin inserted (wrong value).
package main

import "github.com/stg-tool/stg/examples/vending/sut/impl"

func main() { impl.Run(impl.RefundLastCoin) }
