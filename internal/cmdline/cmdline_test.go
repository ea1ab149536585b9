package cmdline

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestLevenshtein(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"genrate", "generate", 1}, {"dto", "dot", 1}, {"chekc", "check", 1}} {
		if got := levenshtein(tt.a, tt.b); got != tt.d {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
	}
}

func TestFullUsage(t *testing.T) {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE`"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
		&cli.StringSliceFlag{Name: "impl", Usage: "`NAME=COMMAND`"},
		&cli.DurationFlag{Name: "timeout", Usage: "after `DURATION`"},
	}
	for _, tt := range []struct {
		usageText, want string
	}{
		{"", "stg x A [--output FILE] [--quiet] [--impl NAME=COMMAND]... [--timeout DURATION]"},
		{"stg x A [-o OUT]", "stg x A [-o OUT] [--quiet] [--impl NAME=COMMAND]... [--timeout DURATION]"},
		{"stg x A [options] -- CMD", "stg x A [--output FILE] [--quiet] [--impl NAME=COMMAND]... [--timeout DURATION] -- CMD"},
		{"stg x A -- CMD", "stg x A [--output FILE] [--quiet] [--impl NAME=COMMAND]... [--timeout DURATION] -- CMD"},
		{"stg x A [-q] [--timeout D]\n   stg x B", "stg x A [-q] [--timeout D] [--output FILE] [--impl NAME=COMMAND]...\nstg x B [--output FILE] [--impl NAME=COMMAND]..."},
	} {
		c := &cli.Command{Name: "x", ArgsUsage: "A", UsageText: tt.usageText, Flags: flags}
		if got := fullUsage(c, "stg x"); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.usageText, got, tt.want)
		}
	}
	long := strings.Repeat("[--flag-name VALUE] ", 10)
	for _, line := range strings.Split(wrapUsage("stg x "+long), "\n") {
		if len(line) > usageWidth || strings.Count(line, "[") != strings.Count(line, "]") {
			t.Errorf("wrapped line %q", line)
		}
	}
}

func TestNearestCommand(t *testing.T) {
	cmds := []*cli.Command{{Name: "generate"}, {Name: "check"}, {Name: "dot"}, {Name: "symex"}}
	for name, want := range map[string]string{"genrate": "generate", "chekc": "check", "dto": "dot", "sym": "symex", "xyzzy": ""} {
		if got := nearestCommand(cmds, name); got != want {
			t.Errorf("nearestCommand(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSplitFlags(t *testing.T) {
	defined := []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}}, &cli.BoolFlag{Name: "quiet"}}
	for _, tt := range []struct{ in, flags, pos string }{
		{"a -o x b", "-o x", "a b"},
		{"a --quiet b -- c -o", "--quiet", "a b -- c -o"},
		{"--output=x a", "--output=x", "a"},
	} {
		flags, pos, err := splitFlags(defined, strings.Fields(tt.in))
		if err != nil || strings.Join(flags, " ") != tt.flags || strings.Join(pos, " ") != tt.pos {
			t.Errorf("%s: flags %q, pos %q, %v", tt.in, flags, pos, err)
		}
	}
	if _, _, err := splitFlags(defined, []string{"a", "-o"}); err == nil || err.Error() != "flag needs an argument: -o" {
		t.Errorf("-o without its value: %v", err)
	}
}
