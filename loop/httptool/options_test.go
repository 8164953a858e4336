package httptool

import (
	"testing"
	"time"
)

func TestOptionsRefuseBadValues(t *testing.T) {
	for name, o := range map[string]Option{
		"Name":         WithName(""),
		"Allow":        WithAllow("not-an-ip"),
		"Allow prefix": WithAllow("10.0.0.0/99"),
		"AllowHosts":   WithAllowHosts(""),
		"Timeout":      WithTimeout(0),
		"MaxBodyBytes": WithMaxBodyBytes(0),
		"MaxRedirects": WithMaxRedirects(-1),
		"Resolver":     WithResolver(nil),
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestOptionsSetValues(t *testing.T) {
	tool, err := New(WithName("fetch"), WithDescription("d"), WithTimeout(time.Second), WithMaxBodyBytes(10), WithMaxRedirects(0), WithAllowHosts("Example.COM"))
	if err != nil {
		t.Fatal(err)
	}
	if tool.Name() != "fetch" || tool.Spec().Description != "d" {
		t.Fatalf("spec %+v", tool.Spec())
	}
	cfg := defaults()
	for _, o := range []Option{WithTimeout(time.Second), WithMaxBodyBytes(10), WithMaxRedirects(0), WithAllowHosts("Example.COM"), WithAllow("10.1.2.3", "fd00::/8")} {
		if err := o(&cfg); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.timeout != time.Second || cfg.maxBody != 10 || cfg.maxRedirects != 0 || !cfg.hosts["example.com"] || len(cfg.allow) != 2 || cfg.allow[0].Bits() != 32 {
		t.Fatalf("config %+v", cfg)
	}
}

// The defaults the option docs state.
func TestDefaults(t *testing.T) {
	cfg := defaults()
	if cfg.name != "http_request" || cfg.timeout != 30*time.Second || cfg.maxBody != 1<<20 || cfg.maxRedirects != 5 || cfg.allow != nil || cfg.hosts != nil {
		t.Fatalf("defaults %+v", cfg)
	}
}
