// Package exampleprog lets a test binary stand for the examples' SUT
// programs, so that the tests which start them as processes do not link
// one binary per program: linking costs more CPU than most tests do.
//
// Each program under examples/EXAMPLE/sut/NAME is one line,
// func main() { impl.Run(impl.Fault) }, with the fault its directory
// names (examples' tests check it). Link makes a program's name a
// symbolic link to the running test binary; started under that name, the
// test binary runs the same impl.Run, when its TestMain calls Main first,
// with the program's arguments, environment, stdin and stdout.
package exampleprog

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	account "github.com/stg-tool/stg/examples/account/sut/impl"
	atmpaper "github.com/stg-tool/stg/examples/atm-paper/sut/impl"
	atm "github.com/stg-tool/stg/examples/atm/sut/impl"
	buffer "github.com/stg-tool/stg/examples/buffer/sut/impl"
	cmp "github.com/stg-tool/stg/examples/cmp/sut/impl"
	jobs "github.com/stg-tool/stg/examples/jobs/sut/impl"
	lucky "github.com/stg-tool/stg/examples/lucky/sut/impl"
	microgrid "github.com/stg-tool/stg/examples/microgrid/sut/impl"
	quidonc "github.com/stg-tool/stg/examples/quidonc/sut/impl"
	retry "github.com/stg-tool/stg/examples/retry/sut/impl"
	slot "github.com/stg-tool/stg/examples/slot/sut/impl"
	tank "github.com/stg-tool/stg/examples/tank/sut/impl"
	vending "github.com/stg-tool/stg/examples/vending/sut/impl"
)

// Programs returns the main of every example program, by package path
// relative to the module: "./examples/cmp/sut/correct".
func Programs() map[string]func() {
	r := map[string]func(){}
	add(r, "account", account.Faults(), account.Run)
	add(r, "atm", atm.Faults(), atm.Run)
	add(r, "atm-paper", atmpaper.Faults(), atmpaper.Run)
	add(r, "buffer", buffer.Faults(), buffer.Run)
	add(r, "cmp", cmp.Faults(), cmp.Run)
	add(r, "jobs", jobs.Faults(), jobs.Run)
	add(r, "lucky", lucky.Faults(), lucky.Run)
	add(r, "microgrid", microgrid.Faults(), microgrid.Run)
	add(r, "quidonc", quidonc.Faults(), quidonc.Run)
	add(r, "retry", retry.Faults(), retry.Run)
	add(r, "slot", slot.Faults(), slot.Run)
	add(r, "tank", tank.Faults(), tank.Run)
	add(r, "vending", vending.Faults(), vending.Run)
	return r
}

func add[F fmt.Stringer](r map[string]func(), example string, faults []F, run func(F)) {
	for _, f := range faults {
		r[Package(example, f.String())] = func() { run(f) }
	}
}

// Package returns the package path of an example's program:
// Package("cmp", "correct") is "./examples/cmp/sut/correct".
func Package(example, name string) string {
	return "./" + path.Join("examples", example, "sut", name)
}

// Name returns the file name Link gives the program of package pkg when
// none is asked for: "cmp-correct" for "./examples/cmp/sut/correct".
func Name(pkg string) string {
	return strings.Replace(strings.TrimPrefix(pkg, "./examples/"), "/sut/", "-", 1)
}

// Main runs the example program the test binary was started as, and
// exits, when its name (os.Args[0]'s base) is a program's Name or one of
// aliases (a name to a package path); else it returns. A test binary's
// TestMain calls it first, before any flag is read.
func Main(aliases map[string]string) {
	base := filepath.Base(os.Args[0])
	pkg, ok := aliases[base]
	progs := Programs()
	if !ok {
		for p := range progs {
			if Name(p) == base {
				pkg, ok = p, true
			}
		}
	}
	if run := progs[pkg]; ok && run != nil {
		run()
		os.Exit(0)
	}
}

// Link makes dir/name a symbolic link to the running test binary, which
// runs the program of package pkg when started as dir/name, and returns
// its path; name "" is Name(pkg). The test binary's TestMain must call
// Main, with name among the aliases when it is not Name(pkg).
func Link(dir, name, pkg string) (string, error) {
	if _, ok := Programs()[pkg]; !ok {
		return "", fmt.Errorf("%s is not an example program", pkg)
	}
	if name == "" {
		name = Name(pkg)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	if err := os.Symlink(exe, p); err != nil {
		return "", err
	}
	return p, nil
}
