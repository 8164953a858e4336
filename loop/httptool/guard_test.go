package httptool

import (
	"errors"
	"net/netip"
	"testing"
)

func TestPolicyRefusesBlockedRanges(t *testing.T) {
	p := &policy{blocked: blockedRanges()}
	cases := map[string]string{
		"127.0.0.1":        "loopback",
		"127.9.9.9":        "loopback",
		"::1":              "loopback",
		"::ffff:127.0.0.1": "loopback", // IPv4-mapped
		"64:ff9b::a00:1":   "private",  // NAT64 of 10.0.0.1
		"10.1.2.3":         "private",
		"172.16.0.1":       "private",
		"172.31.255.255":   "private",
		"192.168.1.1":      "private",
		"fd12:3456::1":     "private",
		"fc00::1":          "private",
		"169.254.169.254":  "metadata",
		"fd00:ec2::254":    "metadata",
		"169.254.1.1":      "link-local",
		"fe80::1":          "link-local",
		"100.64.0.1":       "CGNAT",
		"100.127.255.255":  "CGNAT",
		"0.0.0.0":          "unspecified",
		"::":               "unspecified",
		"224.0.0.1":        "multicast",
		"ff02::1":          "multicast",
		"255.255.255.255":  "reserved",
		// One address per further range of the IANA special-purpose
		// registries that is not globally reachable, and the forms that
		// carry an IPv4 address.
		"192.0.0.8":                   "IETF protocol assignments",
		"192.0.2.1":                   "documentation",
		"198.51.100.1":                "documentation",
		"203.0.113.1":                 "documentation",
		"198.19.0.1":                  "benchmarking",
		"192.88.99.1":                 "6to4 relay anycast",
		"::7f00:1":                    "IPv4-compatible", // ::127.0.0.1
		"::808:808":                   "IPv4-compatible", // ::8.8.8.8, deprecated
		"::ffff:0:7f00:1":             "IPv4-translated", // SIIT ::ffff:0:127.0.0.1
		"64:ff9b:1::a00:1":            "local-use NAT64",
		"64:ff9b::a9fe:a9fe":          "metadata", // NAT64 of 169.254.169.254
		"100::1":                      "discard-only",
		"100:0:0:1::1":                "dummy prefix",
		"2001::1":                     "Teredo",
		"2001:2::1":                   "benchmarking",
		"2001:db8::1":                 "documentation",
		"2001:10::1":                  "IETF protocol assignments", // ORCHID, deprecated
		"3fff::1":                     "documentation",
		"5f00::1":                     "segment routing SIDs",
		"fec0::1":                     "site-local",
		"2002:7f00:1::1":              "6to4 of loopback", // 6to4 of 127.0.0.1
		"2002:a9fe:a9fe::1":           "6to4 of metadata",
		"2002:c0a8:101:1::1":          "6to4 of private",
		"2002:0a00:0001:0000::0a00:1": "6to4 of private",
	}
	for ip, want := range cases {
		err := p.check(netip.MustParseAddr(ip))
		var be *BlockedError
		if !errors.As(err, &be) {
			t.Errorf("%s: got %v, want refused as %s", ip, err, want)
			continue
		}
		if be.Range != want || be.Code() != CodeBlocked {
			t.Errorf("%s: refused as %s (%s), want %s", ip, be.Range, be.Code(), want)
		}
	}
	for _, ip := range []string{"93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2620:4f:8000::1"} {
		if err := p.check(netip.MustParseAddr(ip)); err != nil {
			t.Errorf("%s: refused: %v", ip, err)
		}
	}
}

func TestPolicyAllowWins(t *testing.T) {
	var c config
	if err := WithAllow("127.0.0.1", "10.1.0.0/16", "::ffff:192.168.0.5")(&c); err != nil {
		t.Fatal(err)
	}
	p := &policy{allow: c.allow, blocked: blockedRanges()}
	for _, ip := range []string{"127.0.0.1", "::ffff:127.0.0.1", "10.1.200.3", "192.168.0.5"} {
		if err := p.check(netip.MustParseAddr(ip)); err != nil {
			t.Errorf("%s: refused although allowed: %v", ip, err)
		}
	}
	for _, ip := range []string{"127.0.0.2", "10.2.0.1", "192.168.0.6", "169.254.169.254"} {
		if err := p.check(netip.MustParseAddr(ip)); err == nil {
			t.Errorf("%s: allowed, want refused", ip)
		}
	}
}

// The dialer's Control function sees resolved "ip:port" addresses; it
// refuses blocked ones and anything that is not an IP address.
func TestControl(t *testing.T) {
	p := &policy{blocked: blockedRanges()}
	for _, addr := range []string{"10.0.0.1:80", "[fd00:ec2::254]:80", "[fe80::1%eth0]:443", "localhost:80"} {
		if err := p.control("tcp", addr, nil); err == nil {
			t.Errorf("control(%s) allowed the connection", addr)
		}
	}
	if err := p.control("tcp", "8.8.8.8:443", nil); err != nil {
		t.Errorf("control(8.8.8.8:443): %v", err)
	}
}
