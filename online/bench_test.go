package online

import (
	"context"
	"testing"

	"github.com/stg-tool/stg/adapter"
)

// BenchmarkOnline plays on-line runs against the in-process ATM (m0 =
// 500) and reports steps per second and contexts per step (the mean
// size of Next, the contexts the step had to decide).
func BenchmarkOnline(b *testing.B) {
	for _, bc := range []struct {
		name   string
		accept []string
	}{
		{"eta11", []string{"deposit ask cash"}},
		{"fee6", []string{"check sum ask cashFee check sum"}},
		{"TG2", []string{"ask cash", "ask cashFee", "ask noMoney", "check sum", "deposit delta",
			"deposit ask cash", "deposit ask cashFee", "deposit ask noMoney", "deposit check sum", "deposit deposit delta"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := NewRunner(newTester(b, bc.accept...), Options{})
			steps, contexts := 0, 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := r.Run(context.Background(), adapter.InProcess(&atm{m: 500}), int64(i))
				if err != nil {
					b.Fatal(err)
				}
				for _, st := range Steps(res) {
					steps++
					contexts += len(st.Next)
				}
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(float64(contexts)/float64(max(steps, 1)), "contexts/step")
		})
	}
}

// BenchmarkReplayExample4 replays Example 4's trace (3 rules).
func BenchmarkReplayExample4(b *testing.B) {
	tr := newTester(b, "deposit ask cash")
	evs := events(b, tr, "deposit?250 amount?50 cash!50")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tr.Replay(evs, nil); err != nil {
			b.Fatal(err)
		}
	}
}
