package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stg-tool/stg/report"
)

func readJSONReport(t *testing.T, path string) *report.JSON {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.JSON
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return &rep
}

// timeless blanks the times of a JSON report, which differ from one
// playing to the next.
func timeless(rep *report.JSON) *report.JSON {
	c := *rep
	c.Results = slices.Clone(rep.Results)
	for i := range c.Results {
		c.Results[i].ElapsedMS, c.Results[i].LatenciesMS = 0, nil
	}
	return &c
}

// junitVerdicts lists "case: verdict" for each case of a JUnit report.
func junitVerdicts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s report.JUnitSuites
	if err := xml.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	var r []string
	for _, su := range s.Suites {
		r = append(r, fmt.Sprintf("suite %s: %d tests, %d failures, %d skipped, %d errors", su.Name, su.Tests, su.Failures, su.Skipped, su.Errors))
		for _, c := range su.Cases {
			v := "Pass"
			switch {
			case c.Failure != nil:
				v = "Fail: " + c.Failure.Message
			case c.Skipped != nil:
				v = c.Skipped.Message
			case c.Error != nil:
				v = "error: " + c.Error.Message
			}
			r = append(r, c.Name+": "+v)
		}
	}
	return r
}

// TestShardsMergeParallel plays one campaign of a cmp mutant (12 runs,
// some Pass, some Fail) whole, in three shards, and on two workers: the
// shards play the campaign's seeds once each with the same verdicts and
// transitions, their merged reports (JSON and JUnit) equal the whole
// campaign's but for times, and --parallel 2 gives the same runs.
func TestShardsMergeParallel(t *testing.T) {
	mutant := buildExampleSUT(t, "mutant-ok-threshold")
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	campaign := []string{"run", runTestcaseFile, "--seed", "100", "--runs", "12", "-q", "--quiescence", "300ms"}
	play := func(extra ...string) int {
		args := append(append(slices.Clone(campaign), extra...), "--", mutant)
		code, out, errOut := stgCmd(t, args...)
		if code != exitPass && code != exitFail {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
		return code
	}
	whole := play("--report-json", file("all.json"), "--report", file("all.xml"))
	all := readJSONReport(t, file("all.json"))
	if len(all.Results) != 12 {
		t.Fatalf("whole campaign: %d runs", len(all.Results))
	}
	verdicts := map[string]int{}
	for _, r := range all.Results {
		verdicts[r.Verdict]++
	}
	t.Logf("whole campaign: %v", verdicts)

	var shards, xmls []string
	var union []report.Run
	for i := 1; i <= 3; i++ {
		js, x := file(fmt.Sprintf("shard-%d.json", i)), file(fmt.Sprintf("shard-%d.xml", i))
		play("--shard", fmt.Sprintf("%d/3", i), "--report-json", js, "--report", x)
		shards, xmls = append(shards, js), append(xmls, x)
		rep := readJSONReport(t, js)
		if len(rep.Results) != 4 || rep.Shard != fmt.Sprintf("%d/3", i) {
			t.Errorf("shard %d/3: %d runs, shard %q", i, len(rep.Results), rep.Shard)
		}
		union = append(union, timeless(rep).Results...)
	}
	slices.SortFunc(union, func(a, b report.Run) int { return a.Run - b.Run })
	if want := timeless(all).Results; !reflect.DeepEqual(union, want) {
		t.Errorf("the shards' runs differ from the campaign's:\n%+v\nwant\n%+v", union, want)
	}

	code, out, errOut := stgCmd(t, append([]string{"report", "merge", "-o", file("merged.json")}, shards...)...)
	if code != whole {
		t.Errorf("merge: exit %d, the campaign's %d\n%s\n%s", code, whole, out, errOut)
	}
	if got, want := timeless(readJSONReport(t, file("merged.json"))), timeless(all); !reflect.DeepEqual(got, want) {
		t.Errorf("merged JSON report\n%+v\nwant\n%+v", got, want)
	}
	if !strings.Contains(out, fmt.Sprintf("in 12 run(s): %s", all.Verdict)) || !strings.Contains(out, "transition") {
		t.Errorf("merge prints\n%s", out)
	}
	code, out, errOut = stgCmd(t, append([]string{"report", "merge", "-o", file("merged.xml")}, xmls...)...)
	if code != whole {
		t.Errorf("merge (JUnit): exit %d, the campaign's %d\n%s\n%s", code, whole, out, errOut)
	}
	if got, want := junitVerdicts(t, file("merged.xml")), junitVerdicts(t, file("all.xml")); !reflect.DeepEqual(got, want) {
		t.Errorf("merged JUnit report\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A shard missing: the merge says which runs.
	_, out, _ = stgCmd(t, "report", "merge", shards[0], shards[2])
	if !strings.Contains(out, "missing: 4 of the campaign's 12 runs: [2 5 8 11]") {
		t.Errorf("merge of shards 1 and 3 prints\n%s", out)
	}

	if code := play("--parallel", "2", "--report-json", file("par.json")); code != whole {
		t.Errorf("--parallel 2: exit %d, sequential %d", code, whole)
	}
	if got, want := timeless(readJSONReport(t, file("par.json"))), timeless(all); !reflect.DeepEqual(got, want) {
		t.Errorf("--parallel 2 report\n%+v\nwant\n%+v", got, want)
	}
}

func TestShardNeedsSeed(t *testing.T) {
	code, _, errOut := stgCmd(t, "run", runTestcaseFile, "--shard", "1/2", "--", "true")
	if code != exitError || !strings.Contains(errOut, "--shard needs --seed") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	code, _, errOut = stgCmd(t, "run", runTestcaseFile, "--seed", "1", "--shard", "3/2", "--", "true")
	if code != exitError || !strings.Contains(errOut, "want i/n") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	code, _, errOut = stgCmd(t, "run", runTestcaseFile, "--plan", "longest", "--", "true")
	if code != exitError || !strings.Contains(errOut, "unknown planning strategy") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
