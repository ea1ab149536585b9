package tool

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// ComposeOptions are the options of stg compose.
type ComposeOptions struct {
	System string // the system file
	Output string // write to this file instead of stdout
	Format string // yaml (the default) or dot; with Stats, text or json
	Stats  bool   // print the size of the flat spec only
}

// EnsureDefaults sets the options left zero to their defaults.
func (o *ComposeOptions) EnsureDefaults() { o.Format = statsFormat(o.Format, "yaml", o.Stats) }

// Validate checks the options, worded after stg compose's flags.
func (o *ComposeOptions) Validate() error { return checkFormat(o.Format, o.Stats, "yaml", "dot") }

// Compose is stg compose: it writes the flat spec of the system (Def. 7
// of the component-systems paper), or its size (Stats), to stdout or
// o.Output.
func Compose(o ComposeOptions, stdout io.Writer) error {
	o.EnsureDefaults()
	if err := o.Validate(); err != nil {
		return InputError(err)
	}
	if err := RefuseOverwrite("stg compose: -o", o.Output, o.System); err != nil {
		return InputError(err)
	}
	start := time.Now()
	sys, m, err := compose.Load(o.System)
	if err != nil {
		return InputError(err)
	}
	var out []byte
	switch {
	case o.Stats:
		out, err = composeStats(sys, m, time.Since(start), o.Format)
	case o.Format == "dot":
		out = []byte(emit.DOT(m).String())
	default:
		out, err = specfile.Marshal(m)
	}
	if err != nil {
		return InputError(err)
	}
	return WriteOutput(stdout, o.Output, out)
}

// composeFigures are the size of a flat spec, as stg compose --stats
// prints it.
type composeFigures struct {
	Components  int     `json:"components"`
	Locations   int     `json:"locations"`
	Transitions int     `json:"transitions"`
	Internal    int     `json:"internal_transitions"`
	Variables   int     `json:"variables"`
	Actions     int     `json:"actions"`
	TimeMS      float64 `json:"time_ms"` // loading and composing
}

// composeStats returns the size of the flat spec m of sys, composed in
// d, in format text or json.
func composeStats(sys *spec.System, m *spec.Model, d time.Duration, format string) ([]byte, error) {
	f := composeFigures{Components: len(sys.Components), Locations: len(m.Locations), Transitions: len(m.Transitions),
		Variables: len(m.Variables), Actions: len(m.Actions), TimeMS: timeMS(d)}
	for _, t := range m.Transitions {
		if a := m.Action(t.Action); a != nil && a.Dir == spec.Internal {
			f.Internal++
		}
	}
	var b bytes.Buffer
	if format == "json" {
		err := writeJSON(&b, f)
		return b.Bytes(), err
	}
	fmt.Fprintf(&b, "components: %d\nlocations: %d\ntransitions: %d (%d internal)\nvariables: %d\nactions: %d\ntime: %s\n",
		f.Components, f.Locations, f.Transitions, f.Internal, f.Variables, f.Actions, d.Round(time.Millisecond))
	return b.Bytes(), nil
}
