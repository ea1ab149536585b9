// Command mutant-third-retry is Qui-Donc with a fault: it asks a third time instead of closing.
package main

import "github.com/stg-tool/stg/examples/quidonc/sut/impl"

func main() { impl.Run(impl.ThirdRetry) }
