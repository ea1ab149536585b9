package view

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Layout turns a DOT text into an SVG drawing.
type Layout func(dot string) (string, error)

// ErrNoDot is the error of SystemDot when Graphviz is not installed.
var ErrNoDot = errors.New("stg view lays graphs out with Graphviz's dot program, which is not installed (Debian: apt-get install graphviz)")

// SystemDot lays a graph out with the dot program of the system's
// Graphviz (dot -Tsvg).
func SystemDot(src string) (string, error) {
	prog, err := exec.LookPath("dot")
	if err != nil {
		return "", ErrNoDot
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(prog, "-Tsvg")
	cmd.Stdin = strings.NewReader(src)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("Graphviz's dot failed: %s", msg)
	}
	return stdout.String(), nil
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
