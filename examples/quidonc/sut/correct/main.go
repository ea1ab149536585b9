// Command correct implements examples/quidonc/spec.yaml: the Qui-Donc phone directory.
package main

import "github.com/stg-tool/stg/examples/quidonc/sut/impl"

func main() { impl.Run(impl.Correct) }
