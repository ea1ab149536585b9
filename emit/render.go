package emit

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ErrNoGraphviz is the error of Render when Graphviz's dot program is
// not installed.
var ErrNoGraphviz = errors.New("Graphviz's dot is not installed (Debian: apt-get install graphviz)")

// Render lays a DOT text out with the system's Graphviz (dot -Tformat):
// svg, png, or any format dot knows.
func Render(src []byte, format string) ([]byte, error) {
	prog, err := exec.LookPath("dot")
	if err != nil {
		return nil, ErrNoGraphviz
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(prog, "-T"+format)
	cmd.Stdin = bytes.NewReader(src)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("Graphviz's dot failed: %s", msg)
	}
	return stdout.Bytes(), nil
}
