package abstraction

import (
	"math/big"
	"testing"
)

func assertEqual(t *testing.T, what string, got, want Value) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestPolyMeetConstraints(t *testing.T) {
	r := rspace("x", "y")
	z := ispace("x", "y")
	tests := []struct {
		name string
		sp   *Space
		cs   []string
		want string // String() of the result
	}{
		{"universe", r, nil, "true"},
		{"contradiction", r, []string{"x <= 1", "x >= 2"}, "false"},
		{"redundant", r, []string{"x + y <= 1", "x >= 0", "y >= 0", "x + y <= 5", "x <= 1"}, "{x + y <= 1, x >= 0, y >= 0}"},
		{"parallel duplicate", r, []string{"2*x <= 4", "x <= 2", "x <= 3"}, "{x <= 2}"},
		{"implicit equality", r, []string{"x <= y", "y <= x", "x >= 0"}, "{x - y = 0, x >= 0}"},
		{"point", r, []string{"x = 1", "y = 2", "x + y <= 7"}, "{x = 1, y = 2}"},
		{"int tightening", z, []string{"2*x <= 3"}, "{x <= 1}"},
		{"int tightening neg", z, []string{"2*x >= -3"}, "{x >= -1}"},
		{"int strict", z, []string{"x < 3", "x + y > 0"}, "{x <= 2, x + y >= 1}"},
		{"int gcd", z, []string{"2*x + 4*y <= 5"}, "{x + 2*y <= 2}"},
		{"int equality parity", z, []string{"2*x + 2*y = 1"}, "false"},
		{"int rational coefs", z, []string{"x/2 < 1"}, "{x <= 1}"},
		{"rational strict closed", r, []string{"x < 3"}, "{x <= 3}"},
		{"rational no tightening", r, []string{"2*x <= 3"}, "{2*x <= 3}"},
		{"constant false", r, []string{"0 >= 1"}, "false"},
		{"constant true", r, []string{"0 <= 1", "x <= 1"}, "{x <= 1}"},
		{"empty by int", z, []string{"x >= 1/3", "x <= 2/3"}, "false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mkP(t, tt.sp, tt.cs...)
			if s := got.String(); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}

func TestPolyJoin(t *testing.T) {
	sp := rspace("x", "y")
	tests := []struct {
		name string
		a, b []string
		want []string
	}{
		{"two points: segment with an equality",
			[]string{"x = 0", "y = 0"}, []string{"x = 2", "y = 2"},
			[]string{"x = y", "x >= 0", "x <= 2"}},
		{"point and unbounded region",
			[]string{"x = 0", "y = 0"}, []string{"x >= 1", "y >= x"},
			[]string{"x >= 0", "y >= x"}},
		{"two boxes",
			[]string{"x >= 0", "x <= 1", "y >= 0", "y <= 1"}, []string{"x >= 2", "x <= 3", "y >= 2", "y <= 3"},
			[]string{"x >= 0", "y >= 0", "x <= 3", "y <= 3", "x - y <= 1", "y - x <= 1"}},
		{"parallel lines give a strip",
			[]string{"y = 0"}, []string{"y = 1"},
			[]string{"y >= 0", "y <= 1"}},
		{"half-planes with non-parallel borders give the plane",
			[]string{"x <= 0"}, []string{"y <= 0"},
			nil},
		{"included", []string{"x >= 0"}, []string{"x >= 1", "y = 3"}, []string{"x >= 0"}},
		{"empty left", []string{"x <= -1", "x >= 1"}, []string{"x = 5"}, []string{"x = 5"}},
		{"line and point", []string{"y = 0"}, []string{"x = 0", "y = 1"}, []string{"y >= 0", "y <= 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := mkP(t, sp, tt.a...), mkP(t, sp, tt.b...)
			want := mkP(t, sp, tt.want...)
			assertEqual(t, "a⊔b", a.Join(b), want)
			assertEqual(t, "b⊔a", b.Join(a), want)
		})
	}
}

func TestPolyJoinBothEmpty(t *testing.T) {
	sp := rspace("x")
	e := Polyhedra().Empty(sp)
	if !e.Join(e).IsEmpty() {
		t.Fatal("⊥⊔⊥ not empty")
	}
	if got := e.Constraints(); len(got) != 1 || got[0].String(sp) != "false" {
		t.Fatalf("empty constraints = %v", got)
	}
}

func TestPolyForget(t *testing.T) {
	sp := rspace("x", "y", "z")
	tests := []struct {
		name string
		cs   []string
		dims []int
		want []string
	}{
		{"x = y + z, forget y", []string{"x = y + z", "y >= 0", "y <= 1", "z >= 0", "z <= 2"}, []int{1},
			[]string{"z >= 0", "z <= 2", "x - z >= 0", "x - z <= 1"}},
		{"x = y + z, forget y z", []string{"x = y + z", "y >= 0", "y <= 1", "z >= 0", "z <= 2"}, []int{1, 2},
			[]string{"x >= 0", "x <= 3"}},
		{"triangle shadow", []string{"x >= 0", "y >= 0", "x + y <= 4"}, []int{0}, []string{"y >= 0", "y <= 4"}},
		{"chain", []string{"x <= y", "y <= z"}, []int{1}, []string{"x <= z"}},
		{"unbounded", []string{"x <= y", "y <= z"}, []int{2}, []string{"x <= y"}},
		{"all", []string{"x = 1", "y = 2"}, []int{0, 1, 2}, nil},
		{"dimension fixed to zero", []string{"x = 0", "y = 1"}, []int{0}, []string{"y = 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertEqual(t, "forget", mkP(t, sp, tt.cs...).Forget(tt.dims...), mkP(t, sp, tt.want...))
		})
	}
	if e := Polyhedra().Empty(sp).Forget(0); !e.IsEmpty() {
		t.Error("forget of empty not empty")
	}
}

func TestPolyMeetIncludes(t *testing.T) {
	sp := rspace("x", "y")
	a := mkP(t, sp, "x >= 0", "y >= 0", "x + y <= 2")
	b := mkP(t, sp, "x >= 1", "y >= 1")
	assertEqual(t, "a⊓b", a.Meet(b), mkP(t, sp, "x = 1", "y = 1"))
	c := mkP(t, sp, "x >= 2", "y >= 1")
	if !a.Meet(c).IsEmpty() {
		t.Errorf("a⊓c = %v, want empty", a.Meet(c))
	}
	tests := []struct {
		p, q []string
		want bool
	}{
		{[]string{"x >= 0"}, []string{"x >= 1"}, true},
		{[]string{"x >= 1"}, []string{"x >= 0"}, false},
		{[]string{"x = y"}, []string{"x = y", "x >= 3"}, true},
		{[]string{"x <= y"}, []string{"x = y"}, true},
		{[]string{"x = y"}, []string{"x <= y"}, false},
		{[]string{"x + y <= 2"}, []string{"x <= 1", "y <= 1"}, true},
		{[]string{"x + y <= 2"}, []string{"x <= 1"}, false},
		{nil, []string{"x <= 1"}, true},
		{[]string{"x <= 1", "x >= 2"}, []string{"x = 3", "x = 4"}, true},
		{[]string{"x <= 1", "x >= 2"}, nil, false},
	}
	for _, tt := range tests {
		p, q := mkP(t, sp, tt.p...), mkP(t, sp, tt.q...)
		if got := p.Includes(q); got != tt.want {
			t.Errorf("%v ⊇ %v = %v, want %v", p, q, got, tt.want)
		}
	}
}

func TestPolyImagePreimage(t *testing.T) {
	sp := rspace("x", "y")
	x, y := Var(0), Var(1)
	one := Const(big.NewRat(1, 1))
	box := mkP(t, sp, "x >= 0", "x <= 1", "y >= 0", "y <= 2")
	tests := []struct {
		name     string
		p        Value
		assign   map[int]LinExpr
		img, pre []string
	}{
		{"translate", box, map[int]LinExpr{0: x.Add(one)},
			[]string{"x >= 1", "x <= 2", "y >= 0", "y <= 2"},
			[]string{"x >= -1", "x <= 0", "y >= 0", "y <= 2"}},
		{"swap (parallel)", box, map[int]LinExpr{0: y, 1: x},
			[]string{"y >= 0", "y <= 1", "x >= 0", "x <= 2"},
			[]string{"y >= 0", "y <= 1", "x >= 0", "x <= 2"}},
		{"constant (non invertible)", box, map[int]LinExpr{0: Const(big.NewRat(5, 1))},
			[]string{"x = 5", "y >= 0", "y <= 2"},
			[]string{"0 >= 1"}},
		{"copy", box, map[int]LinExpr{0: y},
			[]string{"x = y", "y >= 0", "y <= 2"},
			[]string{"y >= 0", "y <= 1"}},
		{"sum", box, map[int]LinExpr{0: x.Add(y)},
			[]string{"y >= 0", "y <= 2", "x - y >= 0", "x - y <= 1"},
			[]string{"x + y >= 0", "x + y <= 1", "y >= 0", "y <= 2"}},
		{"scale", box, map[int]LinExpr{1: y.Scale(big.NewRat(1, 2))},
			[]string{"x >= 0", "x <= 1", "y >= 0", "y <= 1"},
			[]string{"x >= 0", "x <= 1", "y >= 0", "y <= 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertEqual(t, "image", tt.p.Image(tt.assign), mkP(t, sp, tt.img...))
			assertEqual(t, "preimage", tt.p.Preimage(tt.assign), mkP(t, sp, tt.pre...))
		})
	}
	// Preimage over integers tightens: 2x <= 3 with x := 2x' gives x' <= 0.
	z := ispace("x")
	p := mk(t, Polyhedra(), z, "x <= 3")
	got := p.Preimage(map[int]LinExpr{0: Var(0).Scale(big.NewRat(2, 1))})
	assertEqual(t, "int preimage", got, mk(t, Polyhedra(), z, "x <= 1"))
}

func TestPolyWiden(t *testing.T) {
	sp := rspace("x", "y")
	// Loop x := 0, y := 0; while (...) { x := x+1; y := y+2 }.
	p := mkP(t, sp, "x = 0", "y = 0")
	step := map[int]LinExpr{0: Var(0).Add(Const(big.NewRat(1, 1))), 1: Var(1).Add(Const(big.NewRat(2, 1)))}
	init := p
	var iters int
	for iters = 0; iters < 10; iters++ {
		next := init.Join(p.Image(step))
		w := p.Widen(next, nil)
		if !w.Includes(next) {
			t.Fatalf("widening %v does not include %v", w, next)
		}
		if w.Equal(p) {
			break
		}
		p = w
	}
	if iters >= 3 {
		t.Errorf("widening did not stabilise quickly: %d iterations", iters)
	}
	assertEqual(t, "fixpoint", p, mkP(t, sp, "y = 2*x", "x >= 0"))

	// Thresholds: x <= 10 survives widening when both iterates satisfy it.
	a := mkP(t, sp, "x >= 0", "x <= 1", "y = 0")
	b := mkP(t, sp, "x >= 0", "x <= 2", "y = 0")
	th := parseAll(t, sp, "x <= 10", "x <= 1", "y <= 5")
	assertEqual(t, "with thresholds", a.Widen(b, th), mkP(t, sp, "x >= 0", "x <= 10", "y = 0"))
	assertEqual(t, "without thresholds", a.Widen(b, nil), mkP(t, sp, "x >= 0", "y = 0"))

	// Equalities split: point to segment keeps y = x and x >= 0.
	pt := mkP(t, sp, "x = 0", "y = 0")
	seg := mkP(t, sp, "x = y", "x >= 0", "x <= 1")
	assertEqual(t, "point to segment", pt.Widen(seg, nil), mkP(t, sp, "x = y", "x >= 0"))

	// Empty older iterate: the newer one.
	e := Polyhedra().Empty(sp)
	assertEqual(t, "⊥∇b", e.Widen(b, nil), b)
	// Newer not including older: widening includes both.
	w := b.Widen(pt, nil)
	if !w.Includes(b) || !w.Includes(pt) {
		t.Errorf("b∇pt = %v does not include both", w)
	}
}

func TestPolyConstraintString(t *testing.T) {
	sp := rspace("x", "y")
	tests := []struct{ in, want string }{
		{"x - y >= 2", "x - y >= 2"},
		{"y - x <= -2", "x - y >= 2"},
		{"x/2 + y/3 <= 1", "3*x + 2*y <= 6"},
		{"2*x + 2*y = 4", "x + y = 2"},
		{"x < 0", "x < 0"},
		{"0 <= 1", "true"},
		{"1 <= 0", "false"},
	}
	for _, tt := range tests {
		if got := parseCons(t, sp, tt.in).String(sp); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPolyZeroDim(t *testing.T) {
	sp := NewSpace(nil, nil)
	u := Polyhedra().Universe(sp)
	if !u.IsUniverse() || u.IsEmpty() {
		t.Fatal("0-dim universe")
	}
	f := u.MeetConstraints([]Constraint{{Const(big.NewRat(1, 1)), Le}})
	if !f.IsEmpty() || !u.Includes(f) || f.Includes(u) {
		t.Fatal("0-dim empty")
	}
	if !u.Join(f).IsUniverse() {
		t.Fatal("0-dim join")
	}
}
