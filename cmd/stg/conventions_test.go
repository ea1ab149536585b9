package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/report"
	"github.com/urfave/cli/v2"
)

// everyCommand returns every command of stg (subcommands included) with
// the command line that names it, "stg report merge".
func everyCommand() map[string]*cli.Command {
	app := newApp(io.Discard, io.Discard)
	out := map[string]*cli.Command{}
	var walk func([]*cli.Command, string)
	walk = func(cmds []*cli.Command, path string) {
		for _, c := range cmds {
			if len(c.Subcommands) == 0 {
				out[path+" "+c.Name] = c
			}
			walk(c.Subcommands, path+" "+c.Name)
		}
	}
	walk(app.Commands, "stg")
	return out
}

func TestInterspersed(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"stg report merge s1.json s2.json -o all.json", "stg report merge -o all.json s1.json s2.json"},
		{"stg report merge s1.json --output=all.json s2.json", "stg report merge --output=all.json s1.json s2.json"},
		{"stg generate SPEC PURPOSE -v --format dot", "stg generate -v --format dot SPEC PURPOSE"},
		{"stg run tc.yaml --runs 3 -- ./sut -v --runs 9", "stg run --runs 3 tc.yaml -- ./sut -v --runs 9"},
		{"stg run tc.yaml --seed -5 --quiet --tcp localhost:1", "stg run --seed -5 --quiet --tcp localhost:1 tc.yaml"},
		{"stg symex SPEC --bogus 3", "stg symex --bogus SPEC 3"}, // unknown: a boolean, for the parser to refuse
		{"stg check SPEC -", "stg check SPEC -"},
		{"stg --version", "stg --version"},
		{"stg nosuch -x a", "stg nosuch -x a"},
		{"stg abstract SPEC --format", "flag needs an argument: --format (see stg abstract --help)"},
		{"stg report merge a.json -o", "flag needs an argument: -o (see stg report merge --help)"},
		{"/usr/local/bin/stg tour A B -o", "flag needs an argument: -o (see stg tour --help)"},
	} {
		args, err := cmdline.Interspersed(newApp(io.Discard, io.Discard), strings.Fields(tt.in))
		got := strings.Join(args, " ")
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestFlagsAfterArguments: a flag means the same before and after the
// positional arguments, on every command that takes files.
func TestFlagsAfterArguments(t *testing.T) {
	for _, tt := range []struct{ before, after []string }{
		{[]string{"compose", "--format", "dot", slotSystem}, []string{"compose", slotSystem, "--format", "dot"}},
		{[]string{"abstract", "--format", "yaml", seedsSpec, seedsPurpose}, []string{"abstract", seedsSpec, seedsPurpose, "--format=yaml"}},
		{[]string{"symex", "--depth", "2", cmpSpec}, []string{"symex", cmpSpec, "--depth", "2"}},
		{[]string{"generate", "--format", "dot", cmpSpec, cmpPurpose}, []string{"generate", cmpSpec, "--format", "dot", cmpPurpose}},
	} {
		c1, out1, err1 := stg(t, tt.before...)
		c2, out2, err2 := stg(t, tt.after...)
		if c1 != 0 || c1 != c2 || out1 != out2 || err1 != err2 {
			t.Errorf("stg %v: exit %d, stg %v: exit %d; outputs equal: %v\n%s%s", tt.before, c1, tt.after, c2, out1 == out2, err1, err2)
		}
	}
}

// TestReportMergeOutputLast: the command line of the README's CI
// snippet, -o after the files.
func TestReportMergeOutputLast(t *testing.T) {
	dir := t.TempDir()
	shard := func(name string, run int, verdict string) string {
		rep := report.JSON{Testcase: "tc", Plan: "diverse", Depth: 8, FirstSeed: 1, Runs: 2, Shard: fmt.Sprintf("%d/2", run),
			Verdict: verdict, Results: []report.Run{{Run: run, Seed: int64(run), Verdict: verdict, Transitions: []string{}}}}
		path := filepath.Join(dir, name)
		if err := report.WriteJSON(path, &rep); err != nil {
			t.Fatal(err)
		}
		return path
	}
	s1, s2, all := shard("s1.json", 1, "Pass"), shard("s2.json", 2, "Pass"), filepath.Join(dir, "all.json")
	code, out, errOut := stg(t, "report", "merge", s1, s2, "-o", all)
	if code != exitPass {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var rep report.JSON
	data, err := os.ReadFile(all)
	if err != nil || json.Unmarshal(data, &rep) != nil || len(rep.Results) != 2 || rep.Verdict != "Pass" {
		t.Errorf("all.json: %v\n%s", err, data)
	}
}

func TestHelpCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "COMMANDS:"},
		{[]string{"help", "generate"}, "stg generate - select a test case"},
		{[]string{"help", "report", "merge"}, "stg report merge - merge the JUnit or JSON reports"},
		{[]string{"generate", "--help"}, "stg generate - select a test case"},
		{[]string{"report", "merge", "-h"}, "stg report merge REPORT... [--output FILE]"},
	} {
		code, out, errOut := stg(t, tt.args...)
		if code != exitPass || !strings.Contains(out, tt.want) || errOut != "" {
			t.Errorf("stg %v: exit %d, stderr %q, want %q in\n%s", tt.args, code, errOut, tt.want, out)
		}
	}
	code, out, errOut := stg(t, "help", "genrate")
	if code != exitError || out != "" || !strings.Contains(errOut, "did you mean stg generate?") {
		t.Errorf("stg help genrate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestUsageErrorOneLine: an unknown flag, a flag without its value, a
// missing argument: one line on stderr that names the command's help,
// nothing on stdout, exit 3.
func TestUsageErrorOneLine(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "flag provided but not defined: --bogus (see stg --help)"},
		{[]string{"-v", "generate", cmpSpec, cmpPurpose}, "flag provided but not defined: -v (see stg --help)"},
		{[]string{"report", "merge"}, "needs the REPORT files of the shards (see stg report merge --help)"},
		{[]string{"generate", cmpSpec, cmpPurpose, "--format"}, "flag needs an argument: --format (see stg generate --help)"},
		{[]string{"generate", "--solver-timeout", "200", cmpSpec, cmpPurpose}, "did you mean 200ms (or 200s)? (see stg generate --help)"},
		{[]string{"abstract", seedsSpec, seedsPurpose, "--stats", "--format", "dot"}, `unknown --format "dot" with --stats: want text or json`},
	}
	for path := range everyCommand() {
		args := append(strings.Fields(path)[1:], "--no-such-flag")
		cases = append(cases, struct {
			args []string
			want string
		}{args, "flag provided but not defined: --no-such-flag (see " + path + " --help)"})
	}
	for _, tt := range cases {
		code, out, errOut := stg(t, tt.args...)
		if code != exitError || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("stg %v: exit %d, stdout %q, stderr %q; want exit 3 and one line with %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	code, out, errOut := stg(t, "--version", "generate", cmpSpec, cmpPurpose)
	if code != exitPass || !strings.HasPrefix(out, "stg version ") || strings.Count(out, "\n") != 1 || errOut != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestOneMeaningPerFlag: a short name stands for the same long name on
// every command, and no command redefines a global flag.
func TestOneMeaningPerFlag(t *testing.T) {
	long := map[string]string{} // short -> long
	for path, c := range everyCommand() {
		for _, f := range c.Flags {
			names := f.Names()
			for _, n := range names {
				if n == "version" {
					t.Errorf("%s defines --version, a global flag", path)
				}
				if len(n) != 1 {
					continue
				}
				l := cmdline.LongestName(f)
				if prev, ok := long[n]; ok && prev != l {
					t.Errorf("-%s is --%s on %s and --%s elsewhere", n, l, path, prev)
				}
				long[n] = l
			}
		}
	}
}

var upperPlaceholder = regexp.MustCompile(`^[A-Z][A-Z0-9_]*([,=:/.][A-Z][A-Z0-9_]*)*$`)

// TestPlaceholders: every flag that takes a value names it in capitals
// in the help ("--format FORMAT", not "--format value").
func TestPlaceholders(t *testing.T) {
	for path, c := range everyCommand() {
		for _, f := range c.Flags {
			if v, ok := f.(cli.DocGenerationFlag); !ok || !v.TakesValue() {
				continue
			}
			if p := cmdline.Placeholder(f); !upperPlaceholder.MatchString(p) {
				t.Errorf("%s --%s: placeholder %q", path, cmdline.LongestName(f), p)
			}
		}
		_, out, _ := stg(t, append(strings.Fields(path)[1:], "--help")...)
		if regexp.MustCompile(`-[a-z-]+ value\b`).MatchString(out) {
			t.Errorf("%s --help shows a placeholder \"value\":\n%s", path, out)
		}
	}
}

// TestUsageListsEveryFlag: the usage lines of every command name each of
// its flags.
func TestUsageListsEveryFlag(t *testing.T) {
	for path, c := range everyCommand() {
		for _, f := range c.Flags {
			if slices.Contains(f.Names(), "help") {
				continue
			}
			if !cmdline.Mentions(strings.ReplaceAll(c.UsageText, "\n", " "), f) {
				t.Errorf("%s: the usage %q lacks --%s", path, c.UsageText, cmdline.LongestName(f))
			}
		}
		if !strings.HasPrefix(c.UsageText, path) {
			t.Errorf("%s: usage %q", path, c.UsageText)
		}
	}
}
