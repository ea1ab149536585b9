// Command mutant-alarm-threshold is the microgrid controller of examples/microgrid: it
// raises the alarm when r > 0.9 instead of r > 1 (RISE(228) = 0.97 gives alarm).
package main

import "github.com/stg-tool/stg/examples/microgrid/sut/impl"

func main() { impl.Run(impl.AlarmThreshold) }
