package main

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

func composeCommand() *cli.Command {
	return &cli.Command{
		Name:      "compose",
		Usage:     "flatten a system of components into one spec",
		ArgsUsage: "SYSTEM",
		UsageText: "stg compose SYSTEM [-o FLAT] [--format yaml|dot] [--stats [--format json]]",
		Description: `Reads a file of kind system (named components, each a spec, and a structure
of compositions and hidings) and writes the system's ioSTS as a flat spec:
locations q1,q2 (one per component), variables qualified by their component
(Int.b), hidden outputs as internal actions, and every transition named by
its system transition name (o,{i1..ik}), e.g. SM.s_pay+{Int.i_cash} for the
output s_pay of SM received by i_cash of Int, {Int.i_bet} for an input of
the environment (component-systems paper, Def. 7).

--stats prints the size of the flat spec instead (components, locations,
transitions, internal ones, variables, actions, time); --stats --format
json prints it as JSON, with the key names of stg symex --stats.

Every command that reads a spec (check, dot, generate, symex, purposes) also
reads a system, composed the same way.

Example:
   stg compose examples/slot/system.yaml -o slot.flat.yaml
   stg compose examples/slot/system.yaml --format dot | dot -Tsvg > slot.svg`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "`FORMAT` of the output: yaml or dot; with --stats, text or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the size of the flat spec only"},
		},
		Action: runCompose,
	}
}

func runCompose(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) != 1 {
		return usageError(c, "stg compose needs one SYSTEM file")
	}
	format := c.String("format")
	if c.Bool("stats") && format == "yaml" {
		format = "text" // the default
	}
	if err := checkFormat(c, format, []string{"yaml", "dot"}); err != nil {
		return err
	}
	if err := tool.RefuseOverwrite("stg compose: -o", c.String("output"), args...); err != nil { // files.go
		return tool.InputError(err)
	}
	start := time.Now()
	sys, m, err := composeSystem(args[0])
	if err != nil {
		return tool.InputError(err)
	}
	var out []byte
	switch {
	case c.Bool("stats"):
		out, err = composeStats(sys, m, time.Since(start), format)
	case format == "dot":
		out = []byte(emit.DOT(m).String())
	default:
		out, err = spec.Marshal(m)
	}
	if err != nil {
		return tool.InputError(err)
	}
	return tool.WriteOutput(c.App.Writer, c.String("output"), out)
}

// composeFile loads the system file path and returns its flat spec.
func composeFile(path string) (*spec.Model, error) {
	_, m, err := composeSystem(path)
	return m, err
}

// composeSystem loads the system file path and returns it with its flat
// spec.
func composeSystem(path string) (*spec.System, *spec.Model, error) {
	sys, err := spec.LoadSystem(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, nil, fmt.Errorf("%s: cannot read: %v", path, pe.Err)
		}
		return nil, nil, err
	}
	g, err := compose.Build(sys)
	if err != nil {
		return nil, nil, err
	}
	m, err := g.Model(sys.Name, path)
	return sys, m, err
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
		err := writeStatsJSON(&b, f)
		return b.Bytes(), err
	}
	fmt.Fprintf(&b, "components: %d\nlocations: %d\ntransitions: %d (%d internal)\nvariables: %d\nactions: %d\ntime: %s\n",
		f.Components, f.Locations, f.Transitions, f.Internal, f.Variables, f.Actions, d.Round(time.Millisecond))
	return b.Bytes(), nil
}

// parseModelOrSystem is spec.ParseModel, except that a system is
// composed into its flat spec.
func parseModelOrSystem(path string, data []byte, sp *spec.Model) (*spec.Model, error) {
	if k, err := spec.PeekKind(path, data); err == nil && k == spec.SystemKind {
		return composeFile(path)
	}
	return spec.ParseModel(path, data, sp)
}

// generateFiles is pipeline.Generate, except that the spec may be a
// system, composed into its flat spec first.
func generateFiles(specPath, purposePath string, opts pipeline.Options) (*pipeline.Result, error) {
	data, err := spec.ReadModelFile(specPath)
	if err != nil {
		return pipeline.Generate(specPath, purposePath, opts) // for its message
	}
	if k, err := spec.PeekKind(specPath, data); err != nil || k != spec.SystemKind {
		return pipeline.Generate(specPath, purposePath, opts)
	}
	s, err := composeFile(specPath)
	if err != nil {
		return nil, err
	}
	return pipeline.GenerateFor(s, purposePath, opts)
}
