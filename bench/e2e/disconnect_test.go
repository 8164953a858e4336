package e2e_test

import (
	"testing"

	"github.com/agui-go/agui/bench/e2e"
)

func TestDisconnectCancelsEveryRun(t *testing.T) {
	for _, useGin := range []bool{true, false} {
		res, err := e2e.Disconnect(t.Context(), useGin, 20)
		if err != nil {
			t.Fatal(err)
		}
		if res.HangUps != 20 || res.Failures != 0 || len(res.Latency) != 20 {
			t.Fatalf("gin %v: %d hang-ups, %d failures, %d latencies", useGin, res.HangUps, res.Failures, len(res.Latency))
		}
		for i := 1; i < len(res.Latency); i++ {
			if res.Latency[i] < res.Latency[i-1] || res.Latency[0] < 0 {
				t.Fatalf("gin %v: latencies not sorted and non-negative: %v", useGin, res.Latency)
			}
		}
	}
}
