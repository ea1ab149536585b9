package adapter

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// A Starter starts a fresh SUT for a run.
type Starter func(ctx context.Context) (Adapter, error)

// Command starts the SUT process argv for each run, its standard error
// going to stderr.
func Command(argv []string, stderr io.Writer) Starter {
	return func(ctx context.Context) (Adapter, error) { return StartProcess(argv, stderr) }
}

// TCPAddr connects to the SUT at addr ("host:port") for each run.
func TCPAddr(addr string) Starter {
	return func(ctx context.Context) (Adapter, error) { return DialTCP(ctx, addr) }
}

// GoSUT calls newSUT for a fresh in-process SUT for each run.
func GoSUT(newSUT func() SUT) Starter {
	return func(ctx context.Context) (Adapter, error) { return InProcess(newSUT()), nil }
}

// SplitCommand splits a command line into words like a simple shell:
// blanks separate words; single quotes keep everything literally; double
// quotes keep everything but \" and \\; a backslash outside quotes keeps
// the next character. It does not expand variables or globs.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
