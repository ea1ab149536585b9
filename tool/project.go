package tool

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/project"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/symex"
)

// Projection names the behaviours of a system to project onto one of
// its sub-systems (stg project, stg purposes --on).
type Projection struct {
	System    string // the system file
	On        string // the sub-system: a component's name, or "Int * SM"
	Path      int    // project the path to the system's node Path; < 0: none
	AllLeaves bool   // project every maximal behaviour of the system

	SolverTimeout time.Duration // bound of each solver query (default pipeline.DefaultQueryTimeout)
}

// validate checks the projection; without Path nor AllLeaves, every
// maximal behaviour is projected when allByDefault.
func (p Projection) validate(allByDefault bool) error {
	if p.On == "" {
		return errors.New("give the sub-system to project on: --on COMPONENT")
	}
	if p.Path >= 0 && p.AllLeaves || p.Path < 0 && !p.AllLeaves && !allByDefault {
		return errors.New("give one of --path ID and --all-leaves")
	}
	return nil
}

// session executes the system symbolically (restricted by inclusion) in
// z and returns it with the leaves to project.
func (p Projection) session(z *solver.Context) (*project.Session, []*symex.Node, error) {
	if p.SolverTimeout == 0 {
		p.SolverTimeout = pipeline.DefaultQueryTimeout
	}
	z.SetTimeout(p.SolverTimeout)
	s, err := project.Load(z, p.System, p.On, symex.Options{Inclusion: true})
	if err != nil {
		return nil, nil, InputError(err)
	}
	if p.Path < 0 {
		var leaves []*symex.Node
		for _, b := range s.Behaviours() {
			leaves = append(leaves, b.Node)
		}
		return s, leaves, nil
	}
	n, err := s.Node(p.Path)
	if err != nil {
		return nil, nil, InputError(err)
	}
	return s, []*symex.Node{n}, nil
}

// ProjectOptions are the options of stg project.
type ProjectOptions struct {
	Projection
	Format string // text (the default), yaml or dot; with Stats, text or json
	Stats  bool   // print the figures of the projection only
}

// EnsureDefaults sets the options left zero to their defaults.
func (o *ProjectOptions) EnsureDefaults() {
	o.Format = statsFormat(o.Format, "text", o.Stats)
	if o.SolverTimeout == 0 {
		o.SolverTimeout = pipeline.DefaultQueryTimeout
	}
}

// Validate checks the options, worded after stg project's flags.
func (o *ProjectOptions) Validate() error {
	if err := checkFormat(o.Format, o.Stats, "text", "yaml", "dot"); err != nil {
		return err
	}
	return o.validate(false)
}

// Project is stg project: it projects the system's behaviours onto a
// sub-system (Defs 15-16 of the component-systems paper) and prints
// each with its external constraints, twins and Def 18 purpose, or the
// figures (Stats).
func Project(o ProjectOptions, stdout io.Writer) error {
	o.EnsureDefaults()
	if err := o.Validate(); err != nil {
		return InputError(err)
	}
	z, err := solver.NewContext()
	if err != nil {
		return InputError(err)
	}
	defer z.Close()
	start := time.Now()
	s, leaves, err := o.session(z)
	if err != nil {
		return err
	}
	var views []*project.View
	for _, leaf := range leaves {
		v, err := s.View(z, leaf)
		if err != nil {
			return InputError(err)
		}
		views = append(views, v)
	}
	var out bytes.Buffer
	switch {
	case o.Format == "json":
		err = writeJSON(&out, projectFiguresOf(s, views, time.Since(start)))
	case o.Stats:
		projectFiguresOf(s, views, time.Since(start)).writeText(&out)
	case o.Format == "text":
		for _, v := range views {
			v.WriteText(&out)
		}
	case o.Format == "yaml":
		enc := yaml.NewEncoder(&out)
		enc.SetIndent(2)
		err = enc.Encode(views)
	case o.Format == "dot":
		project.WriteDOT(&out, s, views)
	}
	if err != nil {
		return InputError(err)
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// projectFigures are the figures of stg project --stats: the system's
// symbolic execution tree (as stg symex --stats names them) and the
// projections.
type projectFigures struct {
	symex.Stats
	States     int      `json:"states"`   // of the tree: its nodes, as stg symex counts them
	Coverage   Coverage `json:"coverage"` // of the system's transitions by its tree
	Behaviours int      `json:"behaviours"`
	Steps      int      `json:"steps"`    // of the component, in all projections
	Twins      int      `json:"twins"`    // satisfiable complementary twins
	Purposes   int      `json:"purposes"` // projections with a test purpose
	TimeMS     float64  `json:"time_ms"`

	time time.Duration
}

func projectFiguresOf(s *project.Session, views []*project.View, d time.Duration) *projectFigures {
	f := &projectFigures{Stats: s.Tree.Stats, States: s.Tree.Stats.Nodes, Coverage: coverageOf(s.Tree.Coverage),
		Behaviours: len(views), TimeMS: timeMS(d), time: d}
	for _, v := range views {
		f.Steps += len(v.States) - 1
		for _, st := range v.States {
			if st.TwinSat {
				f.Twins++
			}
		}
		if v.HasPurpose() {
			f.Purposes++
		}
	}
	return f
}

func (f *projectFigures) writeText(w io.Writer) {
	fmt.Fprintf(w, "nodes: %d\ntransitions: %d\ncoverage: %s\nbehaviours: %d\nsteps: %d\ntwins: %d\npurposes: %d\ntime: %s\n",
		f.Nodes, f.Transitions, ratio(f.Coverage.Covered, f.Coverage.Total), f.Behaviours, f.Steps, f.Twins, f.Purposes, f.time.Round(time.Millisecond))
}

// projectPurposes is stg purposes SYSTEM --on COMPONENT: the Def 18
// purposes of the projected behaviours, as sympurpose files written
// into dir, or printed when dir is "".
func projectPurposes(p Projection, dir string, stdout, stderr io.Writer) error {
	z, err := solver.NewContext()
	if err != nil {
		return InputError(err)
	}
	defer z.Close()
	s, leaves, err := p.session(z)
	if err != nil {
		return err
	}
	files, skipped, err := s.PurposeFiles(z, leaves, dir)
	if err != nil {
		return InputError(err)
	}
	for _, msg := range skipped {
		fmt.Fprintf(stderr, "stg purposes: %s\n", msg)
	}
	if dir == "" {
		// Printed, the spec paths are relative to the working directory.
		for i, f := range files {
			if i > 0 {
				fmt.Fprintln(stdout, "---")
			}
			if _, err := stdout.Write(f.Data); err != nil {
				return err
			}
		}
		return nil
	}
	if err := project.Write(files); err != nil {
		return InputError(err)
	}
	fmt.Fprintf(stderr, "stg purposes: wrote %d files to %s\n", len(files), dir)
	return nil
}
