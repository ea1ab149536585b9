// Command correct implements examples/account/spec.yaml: an account with a daily limit.
package main

import "github.com/stg-tool/stg/examples/account/sut/impl"

func main() { impl.Run(impl.Correct) }
