package specfile

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec/expr"
)

// An unquoted YAML value that starts with !, * or & is not text: YAML
// reads "!x" as a tag, "*x" as an alias and "&x" as an anchor. An
// expression such as !ready or !(x > 0) must therefore be quoted. The
// parser's own message ("did not find expected comment or line break")
// says none of this, and often names a later line; these functions find
// the value and say what to do.

// plainSpecial matches "key: V" where V, a plain (unquoted) value,
// starts with !, * or &; group 1 is the key, group 2 the value.
var plainSpecial = regexp.MustCompile(`(?:^|[\s{,])([A-Za-z_][\w.-]*):[ \t]+([!*&][^,}\n]*)`)

// yamlQuoteHint looks on the lines of data around line (where the YAML
// parser gave up: 4 before, 1 after; all lines if line is 1) for the last
// value that starts with !, * or & unquoted, and returns its position and a hint that says to quote it.
func yamlQuoteHint(file string, data []byte, line int) (expr.Pos, string, bool) {
	lines := strings.Split(string(data), "\n")
	// The parser names the line where it gave up: often a later one,
	// sometimes the one before.
	from, to := line-4, line+1
	if line <= 1 { // no line named: the whole file
		from, to = 1, len(lines)
	}
	for i := min(to, len(lines)) - 1; i >= 0 && i >= from-1; i-- {
		text := lines[i]
		if c := strings.Index(text, "#"); c >= 0 && !strings.ContainsAny(text[:c], `'"`) {
			text = text[:c]
		}
		ms := plainSpecial.FindAllStringSubmatchIndex(text, -1)
		if ms == nil {
			continue
		}
		m := ms[len(ms)-1]
		key, value := text[m[2]:m[3]], strings.TrimSpace(text[m[4]:m[5]])
		return expr.Pos{File: file, Line: i + 1, Col: m[4] + 1}, quoteHint(key, value), true
	}
	return expr.Pos{}, "", false
}

// quoteHint says how to write the value of key that starts with !, *
// or &.
func quoteHint(key, value string) string {
	what := map[byte]string{'!': "a tag", '*': "an alias", '&': "an anchor"}[value[0]]
	quoted := "'" + strings.ReplaceAll(value, "'", "''") + "'"
	return fmt.Sprintf("the value of %s starts with %c, which YAML reads as %s: quote it: %s: %s", key, value[0], what, key, quoted)
}

// yamlTagged returns the first node under n written with a local tag
// (!x), which no value of a model has: it is an unquoted expression that
// starts with !, read by YAML as a tag (with an empty or shortened
// value). It returns nil if there is none.
func yamlTagged(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
		return n
	}
	for _, c := range n.Content {
		if t := yamlTagged(c); t != nil {
			return t
		}
	}
	return nil
}

// taggedHint is the message for a node yamlTagged found.
func taggedHint(n *yaml.Node) string {
	value := n.Tag
	if n.Value != "" {
		value += " " + n.Value
	}
	return fmt.Sprintf("bad YAML: %s is read as the YAML tag %s, not as text: quote the expression that starts with !: '%s'", value, n.Tag, strings.ReplaceAll(value, "'", "''"))
}
