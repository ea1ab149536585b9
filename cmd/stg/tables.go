package main

import (
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// isTablesFile reports whether the file path is a tables file
// (extfunc.IsTablesFile).
func isTablesFile(path string) bool { return extfunc.IsTablesFile(path) }

// checkTables validates the tables file path and returns its summary
// (tool.CheckTables).
func checkTables(path string, sp *spec.Model) (string, error) { return tool.CheckTables(path, sp) }
