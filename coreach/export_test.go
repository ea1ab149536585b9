package coreach

import (
	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/product"
)

// AnalyzeReference runs Analyze with the plain algorithm (guards met as
// predicates at every transfer, descending iterations as full sweeps).
func AnalyzeReference(p *product.Product, dom abstraction.Domain, opts Options) (*Result, error) {
	opts.reference = true
	return Analyze(p, dom, opts)
}
