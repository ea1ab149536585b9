#!/bin/sh
# compare-generate.sh BEFORE AFTER [RING_DIR]
# Generates the test case of every example purpose (examples/*/purpose*.yaml
# and examples/*/testdata/purpose*.yaml with the spec of their example) in
# YAML, DOT and Go with two stg binaries, and of the ring family files in
# RING_DIR (written by go run ./internal/ring/cmd/stg-ring), and reports
# any difference in the outputs, the diagnostics or the exit status.
# Run from the repository's root. Exit status 1 when some output differs.
set -u
before=$1 after=$2 rings=${3:-}
out=$(mktemp -d)
status=0
n=0
run() { # NAME ARGS...
	name=$1
	shift
	"$before" generate "$@" >"$out/b.out" 2>"$out/b.err"
	echo "exit $?" >>"$out/b.err"
	"$after" generate "$@" >"$out/a.out" 2>"$out/a.err"
	echo "exit $?" >>"$out/a.err"
	n=$((n + 1))
	if ! cmp -s "$out/b.out" "$out/a.out" || ! cmp -s "$out/b.err" "$out/a.err"; then
		echo "DIFFERS: $name"
		diff "$out/b.out" "$out/a.out" | head -5
		diff "$out/b.err" "$out/a.err" | head -5
		status=1
	fi
}
for p in examples/*/purpose*.yaml examples/*/testdata/purpose*.yaml; do
	[ -f "$p" ] || continue
	dir=$(dirname "$p")
	case $dir in */testdata) dir=$(dirname "$dir") ;; esac
	for f in yaml dot go; do
		run "$p ($f)" --format "$f" "$dir/spec.yaml" "$p"
	done
done
if [ -n "$rings" ]; then
	for s in "$rings"/ring-*[0-9].yaml; do
		run "$s" "$s" "${s%.yaml}-purpose.yaml"
	done
fi
rm -rf "$out"
echo "compared $n generations"
exit $status
