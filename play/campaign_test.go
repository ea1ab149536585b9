package play

import (
	"reflect"
	"slices"
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"1/1", Shard{1, 1}, true},
		{"2/4", Shard{2, 4}, true},
		{"0/4", Shard{}, false},
		{"5/4", Shard{}, false},
		{"1/0", Shard{}, false},
		{"a/b", Shard{}, false},
		{"3", Shard{}, false},
	} {
		got, err := ParseShard(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// TestShardRunsPartition checks that the shards of a campaign deal every
// run exactly once.
func TestShardRunsPartition(t *testing.T) {
	for _, runs := range []int{1, 7, 12, 100} {
		for n := 1; n <= 5; n++ {
			var all []int
			for i := 1; i <= n; i++ {
				all = append(all, Shard{i, n}.Runs(runs)...)
			}
			slices.Sort(all)
			if !reflect.DeepEqual(all, Shard{}.Runs(runs)) {
				t.Errorf("%d runs, %d shards: %v", runs, n, all)
			}
		}
	}
}

// TestWorkers: a campaign never sets up more workers than it has runs to
// play, nor more than MaxParallel.
func TestWorkers(t *testing.T) {
	for _, tt := range []struct{ parallel, runs, want int }{
		{1, 10, 1}, {4, 10, 4}, {200, 1, 1}, {1000, 5000, MaxParallel}, {0, 3, 1}, {4, 0, 1},
	} {
		if got := Workers(tt.parallel, tt.runs); got != tt.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", tt.parallel, tt.runs, got, tt.want)
		}
	}
}
