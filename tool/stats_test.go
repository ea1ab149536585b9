package tool

import (
	"testing"
)

func TestPercent(t *testing.T) {
	for _, tt := range []struct {
		n, d int
		want string
	}{
		{8, 15, "53.3 %"}, {5, 8, "62.5 %"}, {1, 2, "50 %"}, {3, 8, "37.5 %"}, {0, 7, "0 %"}, {7, 7, "100 %"},
		{1999, 2000, "99.9 %"}, {1, 3000, "0.1 %"}, {0, 0, "- %"},
	} {
		if got := percent(tt.n, tt.d); got != tt.want {
			t.Errorf("percent(%d, %d) = %q, want %q", tt.n, tt.d, got, tt.want)
		}
	}
	if got := ratio(8, 15); got != "8/15 (53.3 %)" {
		t.Errorf("ratio(8, 15) = %q", got)
	}
}

// TestFormats: the default format of a command, and the formats it
// takes, with and without --stats.
func TestFormats(t *testing.T) {
	for _, tt := range []struct {
		format, def string
		stats       bool
		want        string
		err         string
	}{
		{"", "yaml", false, "yaml", ""},
		{"", "yaml", true, "text", ""},
		{"yaml", "yaml", true, "text", ""}, // the flag's default, with --stats
		{"json", "yaml", true, "json", ""},
		{"json", "yaml", false, "json", `unknown --format "json": want yaml or dot`},
		{"dot", "yaml", true, "dot", `unknown --format "dot" with --stats: want text or json`},
	} {
		got := statsFormat(tt.format, tt.def, tt.stats)
		err := checkFormat(got, tt.stats, "yaml", "dot")
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("%q (default %s, stats %v): %q, %v; want %q, %q", tt.format, tt.def, tt.stats, got, err, tt.want, tt.err)
		}
	}
}

// TestOptionsDefaults: EnsureDefaults fills what the command line's
// flags give, and Validate accepts it.
func TestOptionsDefaults(t *testing.T) {
	s := SymexOptions{Spec: "s.yaml"}
	s.EnsureDefaults()
	if s.Depth != DefaultSymexDepth || s.Tree.MaxNodes != DefaultSymexMaxNodes || s.Tree.Functions != "summaries" || s.Format != "text" || s.Validate() != nil {
		t.Errorf("symex: %+v, %v", s, s.Validate())
	}
	s = SymexOptions{Inclusion: true, Tree: TreeOptions{Functions: "uninterpreted", M: 1}}
	if s.EnsureDefaults(); s.Depth != 0 || s.Validate() != errSummaryOnly {
		t.Errorf("symex --inclusion --functions uninterpreted --m 1: depth %d, %v", s.Depth, s.Validate())
	}
	p := PurposesOptions{Length: 2}
	p.EnsureDefaults()
	if p.Tree.MaxNodes != DefaultPurposesMaxNodes || p.Tree.Functions != "" || p.Format != "yaml" || p.Validate() != nil {
		t.Errorf("purposes: %+v, %v", p, p.Validate())
	}
	for _, o := range []PurposesOptions{{}, {Length: 1, KInclusion: 1}, {Length: 1, Split: true}, {On: "SM", Length: 1}, {On: "SM", Path: 0, AllLeaves: true}} {
		if o.EnsureDefaults(); o.Validate() == nil {
			t.Errorf("purposes %+v: valid", o)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"fig4": "fig4_test", "quidonc-fig4": "quidonc_fig4_test", "4x": "tp_4x_test", "": "tp__test"} {
		if got := goPackage(in); got != want {
			t.Errorf("goPackage(%q) = %q, want %q", in, got, want)
		}
	}
	if got := nameSafe("deposit-ask/cash é"); got != "deposit-ask_cash__" {
		t.Errorf("nameSafe: %q", got)
	}
}
