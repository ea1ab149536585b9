// Package doctest keeps the documentation true. Its tests (there is no
// non-test code) build the stg binary once (the test binary stands for the
// example programs: internal/exampleprog), play
// the scripts of testdata/*.txtar with testscript, check that every command
// shown in README.md and docs/ is played by a script and that the output
// the page shows is the output the script compares, check that every
// relative Markdown link resolves inside the repository, and that no
// tracked file points outside it.
//
//	go test ./doctest                 # all checks
//	go test ./doctest -update         # rewrite the scripts' expected outputs
package doctest
