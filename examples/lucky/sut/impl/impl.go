// Package impl implements examples/lucky/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): persons come in with
// a sex and a first and a last name; a person with a name that is not a
// capital followed by small letters is refused; a valid person is lucky
// when the first letters of the names agree, or after a run of at least
// five persons of the other sex. Run serves it as a process, New as an
// in-process SUT.
package impl

import (
	"regexp"
	"strings"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct         Fault = iota
	WholeNames            // lucky by name only when the whole names are equal (compares names, not first letters)
	CaseInsensitive       // validates and compares names ignoring case: "alice" is a valid name
	AcceptsInvalid        // accepts any non-empty name that starts with a capital ("Bob1", "Ann Lee")
	NotCapped             // the run counter is not capped at 5, and a switch is lucky only after exactly 5 (n == 5)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault {
	return []Fault{Correct, WholeNames, CaseInsensitive, AcceptsInvalid, NotCapped}
}

// String returns the directory of the program under sut/ that runs with f.
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-whole-names", "mutant-case-insensitive", "mutant-accepts-invalid", "mutant-not-capped"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("lucky", newMachine(f)) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("lucky", newMachine(f)) }

var (
	validName     = regexp.MustCompile(`^[A-Z][a-z]*$`)
	validNoCase   = regexp.MustCompile(`(?i)^[a-z]+$`)
	startsCapital = regexp.MustCompile(`^[A-Z]`)
)

type machine struct {
	f    Fault
	prev string // the sex of the current run
	n    int    // its length (capped at 5, not for NotCapped)
}

func newMachine(f Fault) *machine { return &machine{f: f, prev: "Male"} }

func (m *machine) valid(name string) bool {
	switch m.f {
	case CaseInsensitive:
		return validNoCase.MatchString(name)
	case AcceptsInvalid:
		return startsCapital.MatchString(name)
	}
	return validName.MatchString(name)
}

func (m *machine) byName(first, last string) bool {
	switch m.f {
	case WholeNames:
		return first == last
	case CaseInsensitive:
		return strings.EqualFold(first[:1], last[:1])
	}
	return first[0] == last[0]
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	sex, _ := msg.Args["sex"].(string)
	first, ok1 := msg.Args["first"].(string)
	last, ok2 := msg.Args["last"].(string)
	if msg.Action != "person" || sex != "Male" && sex != "Female" || !ok1 || !ok2 {
		return nil, false
	}
	if !m.valid(first) || !m.valid(last) {
		return []jsonl.Message{jsonl.Out("refused")}, true
	}
	long := m.n >= 5
	if m.f == NotCapped {
		long = m.n == 5
	}
	lucky := m.byName(first, last) || sex != m.prev && long
	if sex == m.prev {
		m.n++
		if m.f != NotCapped {
			m.n = min(m.n, 5)
		}
	} else {
		m.prev, m.n = sex, 1
	}
	return []jsonl.Message{jsonl.Out("answer", "lucky", lucky)}, true
}
