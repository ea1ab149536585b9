package specfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxModelFileSize is the largest model file (spec, purpose, test case,
// system, sympurpose, tables) the loaders read: 16 MiB, far above any
// model written by hand or by stg, and a bound on the memory a path
// naming an endless file (/dev/zero) or a huge one can take.
const MaxModelFileSize = 16 << 20

// ReadModelFile reads the model file path: it must be a regular file
// (not a device, a pipe or a directory) of at most MaxModelFileSize
// bytes, and is read through a limit, so a file that grows while read
// is cut off and refused too. The error is an *os.PathError whose Err
// says what is wrong.
func ReadModelFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if pe, ok := err.(*os.PathError); ok {
		pe.Op = "open" // as os.ReadFile says it
	}
	if err != nil {
		return nil, err
	}
	if err := regularSmall(path, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil { // the file opened may not be the one stat saw
		return nil, err
	}
	if err := regularSmall(path, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxModelFileSize+1))
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	if len(data) > MaxModelFileSize {
		return nil, tooLarge(path)
	}
	return data, nil
}

// regularSmall refuses a file that is not regular or is too large.
func regularSmall(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s); a model file must be one", fileKind(fi.Mode()))}
	}
	if fi.Size() > MaxModelFileSize {
		return tooLarge(path)
	}
	return nil
}

func tooLarge(path string) error {
	return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d MiB, the limit of model files", MaxModelFileSize>>20)}
}

// fileKind names the kind of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}
