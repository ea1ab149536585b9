package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// A Session is the symbolic execution of a system (its flat model,
// restricted by inclusion unless opts say otherwise) with a projector
// onto one of its sub-systems.
type Session struct {
	System   *spec.System
	Composed *compose.System
	Flat     *spec.Model
	Tree     *symex.Tree
	*Projector
}

// Load reads the system file, composes it, executes it symbolically
// with opts and prepares the projection onto the sub-system on.
func Load(z *solver.Context, file, on string, opts symex.Options) (*Session, error) {
	sys, err := specfile.LoadSystem(file)
	if err != nil {
		return nil, err
	}
	s := &Session{System: sys}
	if s.Composed, err = compose.Build(sys); err != nil {
		return nil, err
	}
	if s.Flat, err = s.Composed.Model(sys.Name, sys.File); err != nil {
		return nil, err
	}
	x, err := symex.NewExecutor(z, s.Flat, opts)
	if err != nil {
		return nil, err
	}
	if s.Tree, err = x.Execute(nil); err != nil {
		return nil, err
	}
	t, err := NewTarget(sys, s.Composed, s.Flat, on)
	if err != nil {
		return nil, err
	}
	if s.Projector, err = NewProjector(z, t); err != nil {
		return nil, err
	}
	return s, nil
}

// Behaviours returns the system's maximal behaviours (Behaviours).
func (s *Session) Behaviours() []*symex.TauNode { return Behaviours(s.Tree.Root) }

// Node returns the node of the system's tree with the given ID.
func (s *Session) Node(id int) (*symex.Node, error) {
	for _, n := range s.Tree.Nodes {
		if n.ID == id {
			return n, nil
		}
	}
	return nil, fmt.Errorf("%s: the symbolic execution has no node %d (it has %d)", s.System.File, id, len(s.Tree.Nodes))
}

// A File is a file to write: a sympurpose, or the flat spec of a
// composite sub-system that the sympurposes name.
type File struct {
	Path string
	Data []byte
}

// PurposeFiles returns the sympurpose files of the Def 18 purposes of
// the projections of the paths to leaves, to be written into dir: one
// per path that moves the sub-system, named after the system, the
// sub-system and the projected path (-2, -3... for the same path under
// other constraints; identical purposes once); a path whose projection
// gives no purpose is reported in skipped. For a composite sub-system the first
// file is its flat spec, which the purposes name.
func (s *Session) PurposeFiles(z *solver.Context, leaves []*symex.Node, dir string) (files []File, skipped []string, err error) {
	specFile := s.On.SpecFile
	if specFile == "" {
		specFile = filepath.Join(dir, s.On.Spec.Name+".yaml")
		data, err := specfile.Marshal(s.On.Spec)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, File{Path: specFile, Data: data})
	}
	rel, err := relPath(dir, specFile)
	if err != nil {
		return nil, nil, err
	}
	seen, taken := map[string]bool{}, map[string]bool{}
	for _, leaf := range leaves {
		p, err := s.Project(leaf)
		if err != nil {
			return nil, nil, err
		}
		tp, err := s.Purpose(p)
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		base := fileSafe(s.System.Name + "-" + s.On.Name + "-" + strings.Join(tp.Accept[0].Node.Path(), "-"))
		sp, err := tp.SymPurpose(z, base, rel)
		if err != nil {
			return nil, nil, err
		}
		data, err := specfile.MarshalSymPurpose(sp)
		if err != nil {
			return nil, nil, err
		}
		if seen[string(data)] {
			continue // another system path with the same projection and constraints
		}
		seen[string(data)] = true
		name := base
		for k := 2; taken[name]; k++ {
			name = base + "-" + strconv.Itoa(k) // the same path, other constraints
		}
		taken[name] = true
		if name != base {
			sp.Name = name
			if data, err = specfile.MarshalSymPurpose(sp); err != nil {
				return nil, nil, err
			}
		}
		files = append(files, File{Path: filepath.Join(dir, name+".yaml"), Data: data})
	}
	return files, skipped, nil
}

// Write writes the files, creating their directories.
func Write(files []File) error {
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// relPath returns target relative to dir.
func relPath(dir, target string) (string, error) {
	a, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	b, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	return filepath.Rel(a, b)
}
