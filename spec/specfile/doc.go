// Package specfile reads and writes the files of stg, the formats that
// docs/reference.md describes (§ Model files, Trace files): YAML model
// files (spec, purpose, testcase), symbolic purposes, systems, tables of
// external functions, and JSON Lines traces. It turns them into the Go
// values of package spec, whose expressions are package expr's.
//
// # The one loader
//
// Open reads any file once and says what it is (File.Kind: spec,
// purpose, testcase, sympurpose, system, tables or trace); a command
// takes its inputs through it. Under it, PeekKind reads the kind a YAML
// file states on its first key, ParseModel and LoadFile read an ioSTS
// (Jeannet, Jéron, Rusu and Zinovieva, "Symbolic test selection based on
// approximate analysis", TACAS 2005, Definition 1), ParseSymPurpose a
// symbolic purpose (Gaston, Le Gall, Rapin and Touil, "Symbolic execution
// techniques for test purpose definition", TestCom 2006, Def. 13),
// ParseSystem a system of components, LoadTables the known rows of
// external functions, and ReadTrace a recorded run (argument values stay
// raw JSON, numbers exact, until typed against an action's signature).
// ReadModelFile bounds what is read (MaxModelFileSize, regular files).
//
// # Writing
//
// Marshal and Write write an ioSTS back as the loader reads it (arrays,
// functions and tables included, written as they were declared; Write
// streams the transitions of a large test case), MarshalSymPurpose and
// MarshalTables their formats, WriteTraceEvent one trace line. Reading
// what was written gives the same model.
//
// # Errors
//
// Every problem in a file is reported as FILE:LINE:COL: message, naming
// the offending item; the readers return an expr.ErrorList sorted by
// position with all the problems found, not only the first. Positions
// come from the YAML nodes (yaml.v3), moved into an expression by
// go/parser's line and column, and in trace files from the offsets of the
// JSON decoder. When YAML itself refuses a line, a hint says how to quote
// the value. The readers never panic on any input.
package specfile
