package tool

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stg-tool/stg/symex"
)

// symexFigures are the figures of a tree: the columns of Table 2 of the
// function-summaries paper (m, height, rows per function, states,
// transition coverage, time) and the tree's Stats. The columns of the
// functions are left out for a spec without external functions.
type symexFigures struct {
	symex.Stats
	*symexFuncFigures
	Order    string   `json:"order"`
	Height   int      `json:"height"`
	States   int      `json:"states"`
	Coverage Coverage `json:"coverage"`
	TimeMS   float64  `json:"time_ms"`

	funcs []string // external functions, in the spec's order
	time  time.Duration
}

// symexFuncFigures are the figures of the external functions.
type symexFuncFigures struct {
	Functions string           `json:"functions"`
	M         int              `json:"m"`
	Dep       bool             `json:"dep"`
	PerCall   bool             `json:"per_call"`
	Rows      map[string]int   `json:"rows"`
	SolveTab  symex.SolveStats `json:"solvetab"`
}

func symexFiguresOf(e *symex.Executor, tree *symex.Tree, opts symex.Options, d time.Duration) symexFigures {
	f := symexFigures{Stats: tree.Stats, Order: opts.Order.String(), Height: opts.Depth, States: tree.Stats.Nodes,
		Coverage: coverageOf(tree.Coverage), TimeMS: timeMS(d), time: d}
	ff := &symexFuncFigures{Functions: opts.Functions.String(), M: opts.Summary.M, Dep: !opts.Summary.NoDep, PerCall: opts.Summary.PerCall,
		Rows: map[string]int{}, SolveTab: e.SolveStats()}
	for _, fn := range e.Spec().Funcs {
		if !fn.IsExternal() {
			continue
		}
		f.funcs = append(f.funcs, fn.Name)
		if tab := e.Tab(); tab != nil {
			ff.Rows[fn.Name] = len(tab[fn.Name])
		} else {
			ff.Rows[fn.Name] = len(fn.Table)
		}
	}
	if len(f.funcs) > 0 {
		f.symexFuncFigures = ff
	}
	return f
}

// writeText prints the settings of the functions, the Table 2 row and
// the tree's Stats.
func (f symexFigures) writeText(w io.Writer) error {
	if f.symexFuncFigures != nil {
		fmt.Fprintf(w, "functions: %s (order %s", f.Functions, f.Order)
		if f.Functions == symex.Summaries.String() {
			fmt.Fprintf(w, ", Dep %v, per-call %v; SolveTab: %d calls, %d attempts, %d executions, %d rows added", f.Dep, f.PerCall, f.SolveTab.Calls, f.SolveTab.Attempts, f.SolveTab.Execs, f.SolveTab.Added)
		}
		fmt.Fprintln(w, ")")
	}
	f.writeRow(w)
	s := f.Stats
	_, err := fmt.Fprintf(w, "nodes: %d\ntransitions: %d\ncut_by_inclusion: %d\nlongest_path: %d\nundecided: %d\nbound_reached: %v\nsolver_queries: %d\n",
		s.Nodes, s.Transitions, s.CutByInclusion, s.LongestPath, s.Undecided, s.BoundReached, s.Queries)
	return err
}

// writeRow prints the Table 2 row of the figures, then the transitions
// never covered.
func (f symexFigures) writeRow(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head, row := []string{"height"}, []string{strconv.Itoa(f.Height)}
	if f.symexFuncFigures != nil {
		head, row = append([]string{"m"}, head...), append([]string{strconv.Itoa(f.M)}, row...)
	}
	for _, name := range f.funcs {
		head, row = append(head, name), append(row, strconv.Itoa(f.Rows[name]))
	}
	head = append(head, "states", "coverage", "time")
	row = append(row, strconv.Itoa(f.States), ratio(f.Coverage.Covered, f.Coverage.Total), f.time.Round(time.Millisecond).String())
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	fmt.Fprintln(tw, strings.Join(row, "\t"))
	tw.Flush()
	unc := strings.Join(f.Coverage.Uncovered, ", ")
	if unc == "" {
		unc = "none"
	}
	fmt.Fprintf(w, "uncovered: %s\n", unc)
}
