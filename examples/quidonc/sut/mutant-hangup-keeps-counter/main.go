// Command mutant-hangup-keeps-counter is Qui-Donc with a fault: hanging up does not reset the try counter.
package main

import "github.com/stg-tool/stg/examples/quidonc/sut/impl"

func main() { impl.Run(impl.HangUpKeepsCounter) }
