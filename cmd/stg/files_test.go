package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/tool"
)

// copyTo copies the file src into dir and returns the copy's path.
func copyTo(t *testing.T, dir, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestNoOverwriteOfInputs: no command writes over a file it reads, by
// path or through a link; the message names the command; the input is
// left as it was.
func TestNoOverwriteOfInputs(t *testing.T) {
	dir := t.TempDir()
	sp := copyTo(t, dir, cmpSpec)
	pu := copyTo(t, dir, cmpPurpose)
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(sp, link); err != nil {
		t.Fatal(err)
	}
	slot := filepath.Join("..", "..", "examples", "slot")
	sysDir := t.TempDir()
	for _, f := range []string{"system.yaml"} {
		copyTo(t, sysDir, filepath.Join(slot, f))
	}
	entries, _ := os.ReadDir(slot)
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".yaml") {
			copyTo(t, sysDir, filepath.Join(slot, e.Name()))
		}
	}
	sys := filepath.Join(sysDir, "system.yaml")
	for _, tc := range []struct {
		name string
		args []string
		in   string
		cmd  string
	}{
		{"dot", []string{"dot", sp, "-o", sp}, sp, "stg dot"},
		{"dot link", []string{"dot", sp, "-o", link}, sp, "stg dot"},
		{"dot purpose", []string{"dot", sp, pu, "-o", pu}, pu, "stg dot"},
		{"symex", []string{"symex", sp, "-o", sp}, sp, "stg symex"},
		{"symex link", []string{"symex", link, "-o", sp}, sp, "stg symex"},
		{"compose", []string{"compose", sys, "-o", sys}, sys, "stg compose"},
		{"generate", []string{"generate", sp, pu, "-o", pu}, pu, "stg generate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.ReadFile(tc.in)
			code, _, errOut := stg(t, tc.args...)
			if code != exitError {
				t.Errorf("exit %d, want 3; stderr %q", code, errOut)
			}
			if !strings.Contains(errOut, tc.cmd+": -o") || !strings.Contains(errOut, "would be overwritten") {
				t.Errorf("stderr %q does not say %s would overwrite its input", errOut, tc.cmd)
			}
			if after, _ := os.ReadFile(tc.in); string(after) != string(before) {
				t.Errorf("%s was changed", tc.in)
			}
		})
	}
}

// TestRefuseOverwrite: the helper on new files, devices and links.
func TestRefuseOverwrite(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.yaml")
	if err := os.WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.yaml")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out  string
		fail bool
	}{
		{"", false},
		{"-", false},
		{filepath.Join(dir, "new.yaml"), false},
		{os.DevNull, false},
		{in, true},
		{hard, true},
		{filepath.Join(dir, ".", "in.yaml"), true},
	} {
		err := tool.RefuseOverwrite("stg x: --out", tc.out, "", in)
		if (err != nil) != tc.fail {
			t.Errorf("tool.RefuseOverwrite(%q) = %v, want failure %v", tc.out, err, tc.fail)
		}
	}
}

// TestWriteOutputWhole: writeOutput replaces a file whole and leaves no
// temporary file behind.
func TestWriteOutputWhole(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.yaml")
	for _, data := range []string{"first\n", "second\n"} {
		if err := tool.WriteOutput(nil, p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != data {
			t.Errorf("file holds %q, want %q", got, data)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want 1", len(entries))
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", fi.Mode(), err)
	}
}

// TestModelPathNotRegular: a model path naming a device or a directory
// is refused at once with exit 3 (stg check /dev/zero used to read
// without end), for every command that reads models.
func TestModelPathNotRegular(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, args := range [][]string{
		{"check", "/dev/zero"},
		{"check", cmpSpec, "/dev/zero"},
		{"dot", "/dev/zero"},
		{"symex", "/dev/zero"},
		{"compose", "/dev/zero"},
		{"generate", "/dev/zero", cmpPurpose},
		{"check", t.TempDir()},
	} {
		code, _, errOut := stg(t, args...)
		if code != exitError || !strings.Contains(errOut, "not a regular file") {
			t.Errorf("stg %v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
