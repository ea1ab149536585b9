package view

import (
	"errors"
	"strings"

	"github.com/stg-tool/stg/emit"
)

// Layout turns a DOT text into an SVG drawing.
type Layout func(dot string) (string, error)

// ErrNoDot is the error of SystemDot when Graphviz is not installed.
var ErrNoDot = errors.New("stg view lays graphs out with Graphviz's dot program, which is not installed (Debian: apt-get install graphviz)")

// SystemDot lays a graph out with the dot program of the system's
// Graphviz (emit.Render).
func SystemDot(src string) (string, error) {
	svg, err := emit.Render([]byte(src), "svg")
	if errors.Is(err, emit.ErrNoGraphviz) {
		return "", ErrNoDot
	}
	return string(svg), err
}

// inlineSVG strips what precedes the <svg element (the XML declaration,
// the doctype, comments), so that the drawing can sit in an HTML page.
func inlineSVG(svg string) (string, error) {
	i := strings.Index(svg, "<svg")
	if i < 0 {
		return "", errors.New("the layout gave no <svg> element")
	}
	return strings.TrimSpace(svg[i:]), nil
}
