// Command mutant-parks-small-jobs implements examples/jobs/spec.yaml: a job server that parks the jobs above 5 instead of 10.
package main

import "github.com/stg-tool/stg/examples/jobs/sut/impl"

func main() { impl.Run(impl.ParksSmallJobs) }
