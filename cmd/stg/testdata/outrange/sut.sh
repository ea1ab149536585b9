#!/bin/sh
# A SUT of testdata/outrange/spec.yaml: answers each go with show(3).
while read -r line; do
  case "$line" in
    *'"go"'*) echo '{"action":"show","args":{"v":3}}' ;;
  esac
done
