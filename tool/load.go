package tool

import (
	"errors"
	"fmt"
	"os"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// Open reads the file path with specfile.Open, the one entry point of every
// kind of file; a file that cannot be read is "FILE: cannot read:
// REASON".
func Open(path string) (*specfile.File, error) {
	f, err := specfile.Open(path)
	return f, readError(path, err)
}

// LoadModel reads the model file path: a spec or a test case; a purpose,
// read with its spec sp; or a system, flattened into its spec as stg
// compose writes it (compose.Build), so that every command that takes a
// spec takes a system.
func LoadModel(path string, sp *spec.Model) (*spec.Model, error) {
	f, err := Open(path)
	if err != nil && (f == nil || f.Kind == spec.SpecKind || f.Kind == spec.TestcaseKind || f.Kind == spec.SystemKind) {
		return nil, err
	}
	return ModelOf(f, sp)
}

// ModelOf is the model of the file f, opened by Open: as LoadModel says.
// A sympurpose, a tables file or a trace is not a model: ParseModel's
// error says so, as it says what is wrong with any file given as a
// model.
func ModelOf(f *specfile.File, sp *spec.Model) (*spec.Model, error) {
	switch f.Kind {
	case spec.SpecKind, spec.TestcaseKind:
		return f.Model, nil
	case spec.PurposeKind:
		return f.Purpose(sp)
	case spec.SystemKind:
		return compose.Flatten(f.System)
	}
	data, err := specfile.ReadModelFile(f.Path)
	if err != nil {
		return nil, readError(f.Path, err)
	}
	return specfile.ParseModel(f.Path, data, sp) // for its message
}

// readError says "FILE: cannot read: REASON" for a file that cannot be
// opened or read; other errors are returned as they are.
func readError(file string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: cannot read: %v", file, pe.Err)
	}
	return err
}

// kindOf returns the kind of the file path, false when it cannot be
// read or states no kind.
func kindOf(path string) (spec.ModelKind, bool) {
	f, _ := specfile.Open(path)
	if f == nil {
		return 0, false
	}
	return f.Kind, true
}

// SwappedSpecPurpose says, when the files given as SPEC and PURPOSE of
// stg cmd are a purpose and a spec, that they are the wrong way round;
// it returns nil otherwise (the loaders then say what is wrong).
func SwappedSpecPurpose(cmd, specPath, purposePath string) error {
	sk, ok1 := kindOf(specPath)
	pk, ok2 := kindOf(purposePath)
	if !ok1 || !ok2 {
		return nil
	}
	isPurpose := sk == spec.PurposeKind || sk == spec.SymPurposeKind
	isSpec := pk == spec.SpecKind || pk == spec.SystemKind
	if isPurpose && isSpec {
		return fmt.Errorf("%s is a %s and %s a %s: the spec comes first: stg %s %s %s", specPath, sk, purposePath, pk, cmd, purposePath, specPath)
	}
	return nil
}
