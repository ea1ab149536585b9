package emit

import (
	"os"
	"testing"

	"github.com/stg-tool/stg/internal/exampleprog"
)

// TestMain lets the test binary stand for the examples' programs that
// the generated Go tests play (exampleprog), instead of building them.
func TestMain(m *testing.M) {
	exampleprog.Main(nil)
	os.Exit(m.Run())
}
