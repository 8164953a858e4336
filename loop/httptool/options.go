package httptool

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"
)

// Option configures the tool [New] returns.
type Option func(*config) error

type config struct {
	name         string
	description  string
	allow        []netip.Prefix
	hosts        map[string]bool
	timeout      time.Duration
	maxBody      int64
	maxRedirects int
	resolver     *net.Resolver
}

func defaults() config {
	return config{
		name:         "http_request",
		description:  "Make an HTTP request and return its status, headers and body (the body may be truncated).",
		timeout:      30 * time.Second,
		maxBody:      1 << 20,
		maxRedirects: 5,
	}
}

// WithName sets the tool's name (default "http_request").
func WithName(name string) Option {
	return func(c *config) error {
		if name == "" {
			return errors.New("httptool: Name: empty")
		}
		c.name = name
		return nil
	}
}

// WithDescription sets the tool's description for the model (default a
// sentence saying what the tool does).
func WithDescription(s string) Option {
	return func(c *config) error { c.description = s; return nil }
}

// WithAllow lets the tool connect to the given networks ("10.1.0.0/16") or
// addresses ("127.0.0.1", "::1") even though they lie in a blocked range
// (default none: every loopback, private, link-local, CGNAT, unspecified,
// multicast, reserved and metadata address is refused). An allowed network
// wins over every blocked range, metadata included.
func WithAllow(networks ...string) Option {
	return func(c *config) error {
		for _, n := range networks {
			var p netip.Prefix
			if strings.Contains(n, "/") {
				var err error
				if p, err = netip.ParsePrefix(n); err != nil {
					return fmt.Errorf("httptool: Allow: %w", err)
				}
			} else {
				a, err := netip.ParseAddr(n)
				if err != nil {
					return fmt.Errorf("httptool: Allow: %w", err)
				}
				a = a.Unmap()
				p = netip.PrefixFrom(a, a.BitLen())
			}
			c.allow = append(c.allow, p.Masked())
		}
		return nil
	}
}

// WithAllowHosts restricts requests to URLs whose host name is one of hosts,
// compared without case (default: any host). It applies to every redirect
// too, and adds to the address check rather than replacing it: an allowed
// host that resolves to a blocked address is still refused.
func WithAllowHosts(hosts ...string) Option {
	return func(c *config) error {
		if c.hosts == nil {
			c.hosts = map[string]bool{}
		}
		for _, h := range hosts {
			if h == "" {
				return errors.New("httptool: AllowHosts: empty host")
			}
			c.hosts[strings.ToLower(h)] = true
		}
		return nil
	}
}

// WithTimeout bounds one call: connecting, every redirect, and reading the
// body (default 30 seconds). The run's context bounds it as well.
func WithTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("httptool: Timeout %v: must be positive", d)
		}
		c.timeout = d
		return nil
	}
}

// WithMaxBodyBytes caps the response body returned to the model (default
// 1 MiB); a longer body is cut there and the result says "truncated".
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("httptool: MaxBodyBytes %d: must be at least 1", n)
		}
		c.maxBody = n
		return nil
	}
}

// WithMaxRedirects caps the redirects one call follows (default 5); 0 follows
// none and returns the redirect response itself.
func WithMaxRedirects(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("httptool: MaxRedirects %d: must not be negative", n)
		}
		c.maxRedirects = n
		return nil
	}
}

// WithResolver sets the resolver host names are looked up with (default
// [net.DefaultResolver]). Whatever it answers, each address is checked just
// before the tool connects to it.
func WithResolver(r *net.Resolver) Option {
	return func(c *config) error {
		if r == nil {
			return errors.New("httptool: Resolver: nil")
		}
		c.resolver = r
		return nil
	}
}
