package play

// A Verdict is the outcome of a run.
type Verdict int

// The verdicts. Pass, Fail and Inconc are those of the STG method (Jard
// and Jéron); WeakPass is that of on-line testing with symbolic purposes
// (Gaston et al.): an accept node explains the run, and so does another
// node of the specification.
const (
	None     Verdict = iota // no verdict yet
	Pass                    // the targeted behaviour was reached
	Fail                    // the SUT does not conform
	Inconc                  // the targeted behaviour can no longer be reached, or the run was cut short
	WeakPass                // the target was reached, but another explanation of the run remains
)

func (v Verdict) String() string {
	switch v {
	case Pass:
		return "Pass"
	case Fail:
		return "Fail"
	case Inconc:
		return "Inconc"
	case WeakPass:
		return "WeakPass"
	}
	return "none"
}

// rank orders the verdicts for Overall: Fail > Pass > WeakPass > Inconc.
func (v Verdict) rank() int {
	switch v {
	case Fail:
		return 4
	case Pass:
		return 3
	case WeakPass:
		return 2
	case Inconc:
		return 1
	}
	return 0
}

// Overall returns the verdict of several runs: Fail if any failed, else
// Pass if any passed, else WeakPass if any gave it, else Inconc (None
// when there are no verdicts).
func Overall(vs ...Verdict) Verdict {
	best := None
	for _, v := range vs {
		if v.rank() > best.rank() {
			best = v
		}
	}
	return best
}

// Exit codes of stg run, one per overall verdict (docs/reference.md).
const (
	ExitPass     = 0
	ExitFail     = 1
	ExitInconc   = 2
	ExitError    = 3
	ExitWeakPass = 4
)

// ExitCode returns the exit code of a campaign whose overall verdict is
// v: None (no run gave a verdict) counts as Inconc.
func (v Verdict) ExitCode() int {
	switch v {
	case Pass:
		return ExitPass
	case Fail:
		return ExitFail
	case WeakPass:
		return ExitWeakPass
	}
	return ExitInconc
}
