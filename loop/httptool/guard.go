package httptool

import (
	"fmt"
	"net/netip"
	"syscall"

	"github.com/agui-go/agui"
)

// Codes of the errors the tool returns. The loop shows the model and the
// client an error's code and message only; the full error, with the
// addresses a dial error names, goes to the loop's log. Their values
// never change.
const (
	// CodeBlocked is the code of a [*BlockedError].
	CodeBlocked agui.Code = "HTTP_ADDRESS_BLOCKED"
	// CodeBadURL: the call's URL does not parse, has a scheme other than
	// http and https, has no host, or names a host outside the allowed
	// ones; the message says which, about the URL the model gave.
	CodeBadURL agui.Code = "HTTP_BAD_URL"
	// CodeRequestFailed: the request did not complete (refused,
	// unreachable, timed out, or its body broke off); the message says
	// whether it timed out, and names no address.
	CodeRequestFailed agui.Code = "HTTP_REQUEST_FAILED"
)

// BlockedError is a connection the tool refused: the address it would have
// connected to lies in a blocked range and in no allowed network. It is
// immutable and safe to share.
type BlockedError struct {
	// Addr is the refused address, as resolved.
	Addr netip.Addr
	// Range names the blocked range, such as "loopback" or "metadata".
	Range string
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s: refused to connect to %s (%s address)", CodeBlocked, e.Addr, e.Range)
}

// Code returns [CodeBlocked].
func (e *BlockedError) Code() agui.Code { return CodeBlocked }

// blockedRange is a network the tool refuses by default.
type blockedRange struct {
	prefix netip.Prefix
	name   string
}

// blockedRanges lists the refused ranges, most specific first so that an error
// names the narrowest one (metadata before link-local and unique local).
// They are every range the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (RFC 6890 and its updates) mark as not globally reachable,
// plus multicast (RFC 5771, RFC 4291) and the deprecated site-local IPv6
// (RFC 3879); the metadata addresses are the instance metadata services
// of the major clouds. A registry block with a few globally reachable
// exceptions (192.0.0.0/24, 2001::/23) is refused whole: no tool of
// this kind needs its anycast services, and refusing is the safe side.
// Addresses that carry an IPv4 address are checked as that address too
// (see [policy.check]).
func blockedRanges() []blockedRange {
	list := []struct{ cidr, name string }{
		{"169.254.169.254/32", "metadata"},
		{"fd00:ec2::254/128", "metadata"},
		{"0.0.0.0/8", "unspecified"},
		{"::/128", "unspecified"},
		{"127.0.0.0/8", "loopback"},
		{"::1/128", "loopback"},
		{"10.0.0.0/8", "private"},
		{"172.16.0.0/12", "private"},
		{"192.168.0.0/16", "private"},
		{"fc00::/7", "private"},
		{"100.64.0.0/10", "CGNAT"},
		{"169.254.0.0/16", "link-local"},
		{"fe80::/10", "link-local"},
		{"224.0.0.0/4", "multicast"},
		{"ff00::/8", "multicast"},
		{"240.0.0.0/4", "reserved"}, // includes the broadcast address
		// The rest of the IPv4 registry.
		{"192.0.0.0/24", "IETF protocol assignments"}, // RFC 6890
		{"192.0.2.0/24", "documentation"},             // RFC 5737
		{"198.51.100.0/24", "documentation"},          // RFC 5737
		{"203.0.113.0/24", "documentation"},           // RFC 5737
		{"198.18.0.0/15", "benchmarking"},             // RFC 2544
		{"192.88.99.0/24", "6to4 relay anycast"},      // RFC 7526, deprecated
		// The rest of the IPv6 registry.
		{"::/96", "IPv4-compatible"},               // RFC 4291, deprecated
		{"::ffff:0:0:0/96", "IPv4-translated"},     // SIIT, RFC 2765
		{"64:ff9b:1::/48", "local-use NAT64"},      // RFC 8215
		{"100::/64", "discard-only"},               // RFC 6666
		{"100:0:0:1::/64", "dummy prefix"},         // RFC 9780
		{"2001::/32", "Teredo"},                    // RFC 4380
		{"2001:2::/48", "benchmarking"},            // RFC 5180
		{"2001:db8::/32", "documentation"},         // RFC 3849
		{"2001::/23", "IETF protocol assignments"}, // RFC 2928
		{"3fff::/20", "documentation"},             // RFC 9637
		{"5f00::/16", "segment routing SIDs"},      // RFC 9602
		{"fec0::/10", "site-local"},                // RFC 3879, deprecated
	}
	out := make([]blockedRange, len(list))
	for i, b := range list {
		out[i] = blockedRange{netip.MustParsePrefix(b.cidr), b.name}
	}
	return out
}

// policy decides which addresses the tool may connect to. It is immutable
// once built and safe for concurrent use.
type policy struct {
	allow   []netip.Prefix
	blocked []blockedRange
}

// check returns a *BlockedError when addr is refused. An IPv4-mapped IPv6
// address, and one of the NAT64 well-known prefix 64:ff9b::/96 (RFC 6052),
// is checked as the IPv4 address it carries; a 6to4 address (2002::/16,
// RFC 3056) is refused when the IPv4 address it carries is, since a relay
// would deliver it there.
func (p *policy) check(addr netip.Addr) error {
	addr = addr.Unmap().WithZone("")
	if b := addr.As16(); addr.Is6() && [12]byte(b[:12]) == [12]byte{0, 0x64, 0xff, 0x9b} {
		addr = netip.AddrFrom4([4]byte(b[12:]))
	}
	for _, a := range p.allow {
		if a.Contains(addr) {
			return nil
		}
	}
	if b := addr.As16(); addr.Is6() && b[0] == 0x20 && b[1] == 0x02 {
		v4 := netip.AddrFrom4([4]byte(b[2:6]))
		if err := p.check(v4); err != nil {
			return &BlockedError{Addr: addr, Range: "6to4 of " + err.(*BlockedError).Range}
		}
	}
	for _, b := range p.blocked {
		if b.prefix.Contains(addr) {
			return &BlockedError{Addr: addr, Range: b.name}
		}
	}
	return nil
}

// control is the net.Dialer Control function: it runs after name
// resolution, for every address the dialer tries, just before the
// connection is made, so neither DNS rebinding nor a redirect can lead the
// tool to a refused address.
func (p *policy) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%s: refused to connect to %q: not an IP address", CodeBlocked, address)
	}
	return p.check(ap.Addr())
}
