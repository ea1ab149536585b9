package cmdline

import (
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// usageWidth is the width at which fullUsage wraps a usage line.
const usageWidth = 96

// fullUsage returns the usage lines of command c, typed as path: its
// hand-written forms (UsageText, else path and ArgsUsage) with every flag
// they do not mention added, "[--name PLACEHOLDER]", in place of an
// "[options]" or at the end of each form; long forms are wrapped.
func fullUsage(c *cli.Command, path string) string {
	forms := []string{strings.TrimSpace(path + " " + c.ArgsUsage)}
	if c.UsageText != "" {
		forms = strings.Split(c.UsageText, "\n")
	}
	var missing []string
	for _, f := range c.Flags {
		if !slices.ContainsFunc(forms, func(form string) bool { return Mentions(form, f) }) {
			missing = append(missing, flagSynopsis(f))
		}
	}
	extra := strings.Join(missing, " ")
	for i, form := range forms {
		form = strings.TrimSpace(form)
		switch {
		case extra == "":
		case strings.Contains(form, "[options]"):
			form = strings.Replace(form, "[options]", extra, 1)
		default:
			form = insertFlags(form, extra)
		}
		forms[i] = wrapUsage(form)
	}
	return strings.Join(forms, "\n")
}

// insertFlags adds the flags extra to form before its "-- COMMAND" part,
// if it has one, else at its end.
func insertFlags(form, extra string) string {
	if i := strings.Index(form, " -- "); i >= 0 {
		return form[:i] + " " + extra + form[i:]
	}
	return form + " " + extra
}

// Mentions says whether the usage form names flag f.
func Mentions(form string, f cli.Flag) bool {
	for _, n := range f.Names() {
		dash := "--"
		if len(n) == 1 {
			dash = "-"
		}
		re := regexp.MustCompile(`(^|[\s\[(|])` + regexp.QuoteMeta(dash+n) + `($|[\s\]=)|])`)
		if re.MatchString(form) {
			return true
		}
	}
	return false
}

// flagSynopsis returns "[--name PLACEHOLDER]" for flag f (its longest
// name; "[--name]" for a boolean flag, "[--name X]..." for a repeatable
// one).
func flagSynopsis(f cli.Flag) string {
	name := LongestName(f)
	dash := "--"
	if len(name) == 1 {
		dash = "-"
	}
	s := dash + name
	if v, ok := f.(cli.DocGenerationFlag); ok && v.TakesValue() {
		s += " " + Placeholder(f)
	}
	s = "[" + s + "]"
	if _, ok := f.(*cli.StringSliceFlag); ok {
		s += "..."
	}
	return s
}

// Placeholder returns the placeholder of flag f: the backquoted word of
// its usage, or VALUE.
func Placeholder(f cli.Flag) string {
	if u, ok := f.(cli.DocGenerationFlag); ok {
		if p := placeholderOf(u.GetUsage()); p != "" {
			return p
		}
	}
	return "VALUE"
}

// placeholderOf returns the placeholder of usage as urfave/cli reads
// it: the first backquoted word ("" if none).
func placeholderOf(usage string) string {
	if m := placeholderWord.FindStringSubmatch(usage); m != nil {
		return m[1]
	}
	return ""
}

// wrapUsage wraps the usage form s at usageWidth, between words and not
// inside a [...] group, indenting the continuation lines.
func wrapUsage(s string) string {
	var lines []string
	line := ""
	for _, g := range usageGroups(s) {
		if line != "" && strings.TrimSpace(line) != "" && len(line)+1+len(g) > usageWidth {
			lines, line = append(lines, line), "    "
		}
		if strings.TrimSpace(line) != "" {
			line += " "
		}
		line += g
	}
	return strings.Join(append(lines, line), "\n")
}

// usageGroups splits a usage form into its words, a [...] group as one.
func usageGroups(s string) []string {
	var groups []string
	depth := 0
	for _, w := range strings.Fields(s) {
		if depth > 0 {
			groups[len(groups)-1] += " " + w
		} else {
			groups = append(groups, w)
		}
		depth += strings.Count(w, "[") - strings.Count(w, "]")
	}
	return groups
}

var placeholderWord = regexp.MustCompile("`([^`]*)`")

// placeholders makes the placeholder of every flag of flags that takes a
// value name the value, in capitals: a flag whose usage has none gets
// its name ("--format FORMAT", not "--format value"); a lower-case one,
// a word of the sentence ("leads to a `sink`"), is unquoted and the
// name put before the sentence.
func placeholders(flags []cli.Flag) {
	for _, f := range flags {
		v, ok := f.(cli.DocGenerationFlag)
		if !ok || !v.TakesValue() {
			continue
		}
		usage := v.GetUsage()
		if p := placeholderOf(usage); p != "" && p == strings.ToUpper(p) {
			continue
		}
		usage = placeholderWord.ReplaceAllString(usage, "$1")
		setUsage(f, "`"+strings.ToUpper(strings.ReplaceAll(LongestName(f), "-", "_"))+"`: "+usage)
	}
}

// LongestName returns the longest name of flag f: "output" for -o.
func LongestName(f cli.Flag) string {
	return slices.MaxFunc(f.Names(), func(a, b string) int { return len(a) - len(b) })
}

// setUsage sets the usage text of flag f.
func setUsage(f cli.Flag, usage string) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.Usage = usage
	case *cli.IntFlag:
		f.Usage = usage
	case *cli.Int64Flag:
		f.Usage = usage
	case *cli.DurationFlag:
		f.Usage = usage
	case *cli.StringSliceFlag:
		f.Usage = usage
	case *cli.Float64Flag:
		f.Usage = usage
	}
}
