package tool

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// RefuseOverwrite returns an error when the output path out names one of
// the input files, however it is spelled (./spec.yaml, a symbolic or a
// hard link: the same file by os.SameFile), or is itself a path given
// as an input. what says where out comes from: "stg dot: -o", "stg run:
// --report". An out that does not exist yet, or "" or "-", is fine.
func RefuseOverwrite(what, out string, inputs ...string) error {
	if out == "" || out == "-" {
		return nil
	}
	o, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", what, out, err)
	}
	if !o.Mode().IsRegular() { // /dev/stdout, a pipe: writing does not destroy an input file
		return nil
	}
	for _, in := range inputs {
		if i, err := os.Stat(in); err == nil && os.SameFile(o, i) {
			return fmt.Errorf("%s %s is the input file %s; it would be overwritten (write the output elsewhere)", what, out, in)
		}
	}
	return nil
}

// WriteOutput writes data to the file named path, or to w when path is
// "". A regular file (or a new one) is written whole or not at all: the
// data goes to a temporary file beside it, renamed over path when
// complete, so an interrupted command leaves the old file or the new one.
// A path naming something else (a device, a pipe, a symbolic link) is
// written in place.
func WriteOutput(w io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := w.Write(data)
		return err
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return InputError(err)
		}
		return nil
	}
	if err := writeWhole(path, data); err != nil {
		return InputError(err)
	}
	return nil
}

// writeWhole writes data to a temporary file in path's directory and
// renames it to path.
func writeWhole(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		// A directory we may not write to may hold a file we may:
		// write it in place.
		return os.WriteFile(path, data, 0o644)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
