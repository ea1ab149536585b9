package online

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
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

// BenchmarkQueued plays on-line runs against SUTs executing random
// small specs and delaying their outputs past the stimuli (slowSUT),
// the tester stimulating at once (queued semantics) or waiting while an
// output may come (AvoidCrossing); it reports steps per second, the
// contexts per step (the mean size of Next) and the stimuli in flight
// per output judged.
func BenchmarkQueued(b *testing.B) {
	for _, avoid := range []bool{false, true} {
		name := "queued"
		if avoid {
			name = "avoid"
		}
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			var rs []*Runner
			var ss []randSpec
			for len(rs) < 8 {
				s := newRandSpec(rng, false)
				if p := s.walk(rng); p != "" {
					rs = append(rs, NewRunner(crossTester(b, s.yaml(), p), Options{AvoidCrossing: avoid, Options: play.Options{MaxSteps: 40}}))
					ss = append(ss, s)
				}
			}
			steps, contexts, outs, inflight := 0, 0, 0, 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res := runSlow(b, rs[i%len(rs)], ss[i%len(rs)], rand.New(rand.NewPCG(uint64(i), 5)), int64(i))
				for _, st := range Steps(res) {
					steps++
					contexts += len(st.Next)
					if !st.Event.Stim {
						outs++
						inflight += st.InFlight
					}
				}
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(float64(contexts)/float64(max(steps, 1)), "contexts/step")
			b.ReportMetric(float64(inflight)/float64(max(outs, 1)), "inflight/output")
		})
	}
}
