package compose

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/stg-tool/stg/spec"
)

// Load reads the system file path and returns it with its flat spec
// (System.Model, named after the system). A file that cannot be read is
// reported as "PATH: cannot read: REASON".
func Load(path string) (*spec.System, *spec.Model, error) {
	sys, err := spec.LoadSystem(path)
	if err != nil {
		return nil, nil, cannotRead(path, err)
	}
	g, err := Build(sys)
	if err != nil {
		return nil, nil, err
	}
	m, err := g.Model(sys.Name, path)
	return sys, m, err
}

// ReadModel reads the model file path as spec.ParseModel parses it (sp
// is the spec of a purpose), except that a system is composed into its
// flat spec. A file that cannot be read is reported as "PATH: cannot
// read: REASON"; the other errors are spec.ErrorLists.
func ReadModel(path string, sp *spec.Model) (*spec.Model, error) {
	data, err := spec.ReadModelFile(path)
	if err != nil {
		return nil, cannotRead(path, err)
	}
	return ParseModel(path, data, sp)
}

// ParseModel is spec.ParseModel, except that a system is composed into
// its flat spec.
func ParseModel(path string, data []byte, sp *spec.Model) (*spec.Model, error) {
	if k, err := spec.PeekKind(path, data); err == nil && k == spec.SystemKind {
		_, m, err := Load(path)
		return m, err
	}
	return spec.ParseModel(path, data, sp)
}

// IsSystemFile reports whether the file path reads as a system (kind:
// system); false when it cannot be read.
func IsSystemFile(path string) bool {
	data, err := spec.ReadModelFile(path)
	if err != nil {
		return false
	}
	k, err := spec.PeekKind(path, data)
	return err == nil && k == spec.SystemKind
}

// cannotRead words an error of reading the file path.
func cannotRead(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: cannot read: %v", path, pe.Err)
	}
	return err
}
