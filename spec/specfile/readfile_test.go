package specfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// TestReadModelFileRefuses: devices, directories, pipes and files above
// the size limit are refused with a message that says why, before
// anything is read (reading /dev/zero used to grow without bound).
func TestReadModelFileRefuses(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxModelFileSize + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "not a regular file (a character device); a model file must be one"},
		{dir, "not a regular file (a directory)"},
		{fifo, "not a regular file (a named pipe)"},
		{big, "larger than 16 MiB, the limit of model files"},
		{filepath.Join(dir, "none.yaml"), "no such file"},
	} {
		_, err := ReadModelFile(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadModelFile(%s) = %v, want %q", tc.path, err, tc.want)
		}
		if _, err := LoadFile(tc.path, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadFile(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	ok := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(ok, []byte(cmpSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadModelFile(ok); err != nil || string(data) != cmpSpec {
		t.Errorf("ReadModelFile(regular file) = %d bytes, %v", len(data), err)
	}
}

// TestSystemComponentDevZero: a component file naming a device is an
// error at the component's position, not an endless read.
func TestSystemComponentDevZero(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": sysA,
		"s.yaml": "kind: system\nname: s\ncomponents: {A: a.yaml, B: /dev/zero}\nstructure: \"A * B\"\n"})
	_, err := LoadSystem(filepath.Join(dir, "s.yaml"))
	if err == nil || !strings.Contains(err.Error(), "s.yaml:3:28: component B: cannot read /dev/zero: not a regular file") {
		t.Fatalf("LoadSystem = %v", err)
	}
}

// TestSecondDocument: a model file holds one YAML document; a second one
// is an error at its position (it used to be ignored silently).
func TestSecondDocument(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{cmpSpec + "---\nkind: spec\nname: other\n", "m.yaml:23:1: a second YAML document (after ---): a model file holds one model"},
		{cmpSpec + "--- 3\n", "m.yaml:22:5: a second YAML document"},
		{"---\n" + cmpSpec + "---\n- a\n", "m.yaml:24:1: a second YAML document"},
		{cmpSpec + "---\n[a\n", "bad YAML"},
	} {
		_, err := ParseModel("m.yaml", []byte(tc.text), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseModel(...%q) = %v, want %q", tc.text[len(tc.text)-12:], err, tc.want)
		}
	}
	for _, text := range []string{cmpSpec, "---\n" + cmpSpec, cmpSpec + "...\n", "---\n" + cmpSpec + "...\n"} {
		if _, err := ParseModel("m.yaml", []byte(text), nil); err != nil {
			t.Errorf("one document: %v", err)
		}
	}
}

// TestRangeBoundBeyond64Bits: integers of any size bound a range; a bad
// bound is one error, and the variable stays declared (no cascaded
// "undeclared name").
func TestRangeBoundBeyond64Bits(t *testing.T) {
	const model = "kind: spec\nname: r\nvariables:\n  x: {type: int, range: [%s]}\nactions:\n  a: {dir: input, params: {p: {type: int, range: [%s]}}}\ninitial: {location: A, condition: x == 0}\ntransitions:\n  - {from: A, action: a, guard: \"x > p\", to: A}\n"
	huge := "-99999999999999999999999, 0x1_0000_0000_0000_0000"
	m, err := ParseModel("r.yaml", []byte(strings.ReplaceAll(model, "%s", huge)), nil)
	if err != nil {
		t.Fatalf("huge bounds: %v", err)
	}
	if r := m.Variables[0].Range; r.Lo.String() != "-99999999999999999999999" || r.Hi.String() != "18446744073709551616" {
		t.Errorf("range [%s, %s]", r.Lo, r.Hi)
	}
	for _, bad := range []string{"0, 1e30", "0, 1.5", "a, 1"} {
		_, err := ParseModel("r.yaml", []byte(strings.ReplaceAll(model, "%s", bad)), nil)
		el, ok := err.(expr.ErrorList)
		if !ok || len(el) != 2 { // one for x, one for p
			t.Errorf("[%s]: %v, want two errors", bad, err)
			continue
		}
		for _, e := range el {
			if !strings.Contains(e.Msg, "is not an integer") {
				t.Errorf("[%s]: %v", bad, e)
			}
		}
	}
}
