package aguiprom

import (
	"errors"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
)

// Option configures [New]. Options are plain values, safe to share.
type Option func(*config) error

type config struct {
	namespace string
	buckets   []float64
}

// DefaultNamespace prefixes every metric name unless [WithNamespace] says
// otherwise.
const DefaultNamespace = "agui"

// DefaultBuckets are the run duration histogram's upper bounds in seconds
// unless [WithBuckets] says otherwise: 50 ms doubling to about 102 s, the
// span from a canned answer to a long tool-using run.
func DefaultBuckets() []float64 { return prometheus.ExponentialBuckets(0.05, 2, 12) }

func newConfig(opts []Option) (config, error) {
	c := config{namespace: DefaultNamespace, buckets: DefaultBuckets()}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// WithNamespace sets the metric names' prefix (default "agui",
// [DefaultNamespace]); "" leaves the names bare (runs_started_total).
func WithNamespace(ns string) Option {
	return func(c *config) error {
		c.namespace = ns
		return nil
	}
}

// WithBuckets sets the upper bounds, in seconds, of the run duration
// histogram's buckets (default [DefaultBuckets]). They must be increasing.
func WithBuckets(b []float64) Option {
	return func(c *config) error {
		if len(b) == 0 || !slices.IsSorted(b) || len(slices.Compact(slices.Clone(b))) != len(b) {
			return errors.New("aguiprom: WithBuckets needs increasing bounds")
		}
		c.buckets = slices.Clone(b)
		return nil
	}
}
