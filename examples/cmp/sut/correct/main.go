// Command correct implements examples/cmp/spec.yaml: it reads two numbers
// x and y, answers ok(y-x) if y-x >= 2 and nok(y-x) otherwise, then end.
package main

import "github.com/stg-tool/stg/examples/cmp/sut/impl"

func main() { impl.Run(impl.Correct) }
