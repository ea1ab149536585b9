package compose

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// Load reads the system file path and returns it with its flat spec
// (System.Model, named after the system). A file that cannot be read is
// reported as "PATH: cannot read: REASON".
func Load(path string) (*spec.System, *spec.Model, error) {
	sys, err := specfile.LoadSystem(path)
	if err != nil {
		return nil, nil, cannotRead(path, err)
	}
	m, err := Flatten(sys)
	return sys, m, err
}

// Flatten returns the flat spec of the system sys: its components
// composed (Build), the spec named after the system and its file.
func Flatten(sys *spec.System) (*spec.Model, error) {
	g, err := Build(sys)
	if err != nil {
		return nil, err
	}
	return g.Model(sys.Name, sys.File)
}

// cannotRead words an error of reading the file path.
func cannotRead(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: cannot read: %v", path, pe.Err)
	}
	return err
}
