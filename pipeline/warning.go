package pipeline

import (
	"regexp"
	"strings"
)

// notePos matches the position that starts a note: FILE:LINE:COL or
// LINE:COL, then ": ".
var notePos = regexp.MustCompile(`^((?:[^:\n]+:)?\d+:\d+): `)

// Warning returns the warning line of note, as compilers print them:
// "FILE:LINE:COL: warning: MSG" for a note "FILE:LINE:COL: MSG", else
// "stg: warning: MSG".
func Warning(note string) string {
	note = strings.TrimSpace(note)
	if m := notePos.FindStringSubmatchIndex(note); m != nil {
		return note[:m[3]] + ": warning: " + note[m[1]:]
	}
	return "stg: warning: " + note
}
