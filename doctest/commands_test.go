package doctest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// A scripted command is a line `exec PROGRAM ARGS...`, `! exec ...`,
// `status N PROGRAM ARGS...`, or testscript's own mkdir, cd or cp, with what the lines after it
// check: the files its stdout and stderr are compared with (`cmp stdout F`)
// and the regular expressions they must match (`stdout RE`).
type scripted struct {
	where    string
	args     []string
	goldens  []string
	patterns []*regexp.Regexp
}

// A shown command is a `$ ` line of a code block in a page, with the output
// lines the page shows under it.
type shown struct {
	where  string
	args   []string
	output []string
}

// docPages are the pages whose commands must all be played by a script:
// every tracked Markdown file.
func docPages(t *testing.T) []string {
	var pages []string
	for _, f := range trackedFiles(t) {
		if strings.HasSuffix(f, ".md") {
			pages = append(pages, f)
		}
	}
	return pages
}

// TestDocCommands checks that every command a page shows is played by a
// script with the same arguments, and that the output the page shows is
// the output the script checks: with a golden file, the lines shown must
// be those of the file, in order (all of them unless the page elides some
// with "..."); without one, each line shown must match one of the
// script's stdout/stderr patterns for that command. `go build -o NAME PKG`
// must be one of the programs TestMain builds; other `go` commands
// (go test, go install, go run) are the reader's own.
func TestDocCommands(t *testing.T) {
	scripts := readScripts(t)
	for _, page := range docPages(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot(), page))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range shownCommands(page, string(data)) {
			if msg := checkShown(c, scripts); msg != "" {
				t.Errorf("%s: $ %s: %s", c.where, strings.Join(c.args, " "), msg)
			}
		}
	}
}

func checkShown(c shown, scripts []scripted) string {
	if len(c.args) == 0 {
		return "empty command"
	}
	if len(c.args) > 3 && slices.Equal(c.args[:3], []string{"go", "run", "./cmd/stg"}) {
		c.args = append([]string{"stg"}, c.args[3:]...)
	}
	if c.args[0] == "go" {
		if len(c.args) == 5 && c.args[1] == "build" && c.args[2] == "-o" {
			if programs[c.args[3]] != c.args[4] {
				return "not one of the programs doctest builds (see programs in main_test.go)"
			}
		}
		return ""
	}
	var found []scripted
	for _, s := range scripts {
		if slices.Equal(s.args, c.args) {
			found = append(found, s)
		}
	}
	if len(found) == 0 {
		return "played by no script in doctest/testdata"
	}
	var msgs []string
	for _, s := range found {
		msg := checkOutput(c.output, s)
		if msg == "" {
			return ""
		}
		msgs = append(msgs, s.where+": "+msg)
	}
	return strings.Join(msgs, "; ")
}

func checkOutput(out []string, s scripted) string {
	if len(s.goldens) > 0 {
		var want []string
		for _, g := range s.goldens {
			want = append(want, lines(g)...)
		}
		return compareLines(out, want)
	}
	for _, l := range out {
		if l == "..." {
			continue
		}
		if !slices.ContainsFunc(s.patterns, func(re *regexp.Regexp) bool { return re.MatchString(l) }) {
			return fmt.Sprintf("shown line %q is checked by no stdout/stderr pattern of the script", l)
		}
	}
	return ""
}

// compareLines: without "...", the page shows the whole output; with it,
// the lines shown are a subsequence of the output.
func compareLines(shown, want []string) string {
	if !slices.Contains(shown, "...") {
		if len(shown) == 0 || slices.Equal(shown, want) {
			return ""
		}
		for i := range shown {
			if i >= len(want) || shown[i] != want[i] {
				return fmt.Sprintf("shown line %d %q differs from the golden output (%s)", i+1, shown[i], at(want, i))
			}
		}
		return fmt.Sprintf("the page shows %d lines, the golden output has %d (elide with ...)", len(shown), len(want))
	}
	j := 0
	for _, l := range shown {
		if l == "..." {
			continue
		}
		for j < len(want) && want[j] != l {
			j++
		}
		if j == len(want) {
			return fmt.Sprintf("shown line %q is not in the golden output (in that order)", l)
		}
		j++
	}
	return ""
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return fmt.Sprintf("golden: %q", lines[i])
	}
	return "the golden output ends before"
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		out = append(out, strings.TrimRight(l, " \t"))
	}
	return out
}

// shownCommands reads the `$ ` lines of a page's fenced code blocks, a
// trailing backslash continuing a command, and the output lines under each.
func shownCommands(page, text string) []shown {
	var (
		cmds []shown
		in   bool
		cur  *shown
		cont string
		ind  int // the indentation of the block's fence
	)
	for i, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "```") {
			in, cur = !in, nil
			ind = len(l) - len(strings.TrimLeft(l, " "))
			continue
		}
		if !in {
			continue
		}
		switch {
		case cont != "":
			cont += " " + strings.TrimSuffix(trimmed, "\\")
			if !strings.HasSuffix(trimmed, "\\") {
				cur.args, cont = shellWords(cont), ""
			}
		case strings.HasPrefix(trimmed, "$ "):
			cmds = append(cmds, shown{where: fmt.Sprintf("%s:%d", page, i+1)})
			cur = &cmds[len(cmds)-1]
			text := strings.TrimPrefix(trimmed, "$ ")
			if strings.HasSuffix(text, "\\") {
				cont = strings.TrimSuffix(text, "\\")
				continue
			}
			cur.args = shellWords(text)
		case cur != nil:
			l = strings.TrimPrefix(l, strings.Repeat(" ", min(ind, len(l)-len(strings.TrimLeft(l, " ")))))
			cur.output = append(cur.output, strings.TrimRight(l, " \t"))
		}
	}
	return cmds
}

// shellWords splits a command line as a POSIX shell would for the simple
// commands pages show: single and double quotes, backslash escapes, a
// comment from an unquoted #, leading NAME=VALUE assignments dropped.
func shellWords(s string) []string {
	var (
		words []string
		w     strings.Builder
		inW   bool
		q     rune
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case q != 0 && r == q:
			q = 0
		case q == '\'':
			w.WriteRune(r)
		case q == '"' && r == '\\' && i+1 < len(rs) && strings.ContainsRune(`"\$`, rs[i+1]):
			i++
			w.WriteRune(rs[i])
		case q == '"':
			w.WriteRune(r)
		case r == '\'' || r == '"':
			q, inW = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			w.WriteRune(rs[i])
			inW = true
		case r == ' ' || r == '\t':
			if inW {
				words = append(words, w.String())
				w.Reset()
				inW = false
			}
		case r == '#' && !inW:
			i = len(rs)
		default:
			w.WriteRune(r)
			inW = true
		}
	}
	if inW {
		words = append(words, w.String())
	}
	return dropAssignments(words)
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func dropAssignments(words []string) []string {
	for len(words) > 0 && assignment.MatchString(words[0]) {
		words = words[1:]
	}
	return words
}

// readScripts parses testdata/*.txtar into their scripted commands.
func readScripts(t *testing.T) []scripted {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	var all []scripted
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		archive := map[string]string{}
		for _, af := range a.Files {
			archive[af.Name] = string(af.Data)
		}
		all = append(all, parseScript(f, string(a.Comment), archive)...)
	}
	return all
}

func parseScript(name, script string, archive map[string]string) []scripted {
	var (
		out []scripted
		cur *scripted
	)
	for i, l := range strings.Split(script, "\n") {
		words := scriptWords(l)
		for len(words) > 0 && (words[0] == "!" || strings.HasPrefix(words[0], "[")) {
			words = words[1:] // negation, condition
		}
		if len(words) == 0 {
			continue
		}
		switch {
		case words[0] == "exec":
			out = append(out, scripted{where: fmt.Sprintf("%s:%d", name, i+1), args: words[1:]})
			cur = &out[len(out)-1]
		case words[0] == "mkdir" || words[0] == "cd" || words[0] == "cp":
			out = append(out, scripted{where: fmt.Sprintf("%s:%d", name, i+1), args: words})
			cur = &out[len(out)-1]
		case words[0] == "status" && len(words) > 2:
			out = append(out, scripted{where: fmt.Sprintf("%s:%d", name, i+1), args: words[2:]})
			cur = &out[len(out)-1]
		case cur == nil:
		case words[0] == "cmp" && len(words) == 3 && (words[1] == "stdout" || words[1] == "stderr"):
			cur.goldens = append(cur.goldens, archive[words[2]])
		case (words[0] == "stdout" || words[0] == "stderr") && len(words) > 1:
			if re, err := regexp.Compile(words[len(words)-1]); err == nil {
				cur.patterns = append(cur.patterns, re)
			}
		}
	}
	return out
}

// scriptWords splits a script line as testscript does: single quotes
// only, ” inside them for a quote, # starting a comment.
func scriptWords(l string) []string {
	var (
		words []string
		w     strings.Builder
		inW   bool
		quote bool
	)
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote && c == '\'' && i+1 < len(l) && l[i+1] == '\'':
			w.WriteByte('\'')
			i++
		case c == '\'':
			quote, inW = !quote, true
		case quote:
			w.WriteByte(c)
		case c == ' ' || c == '\t':
			if inW {
				words = append(words, w.String())
				w.Reset()
				inW = false
			}
		case c == '#' && !inW:
			i = len(l)
		default:
			w.WriteByte(c)
			inW = true
		}
	}
	if inW {
		words = append(words, w.String())
	}
	return words
}
