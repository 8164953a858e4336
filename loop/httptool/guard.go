package httptool

import (
	"fmt"
	"net/netip"
	"syscall"

	"github.com/agui-go/agui"
)

// CodeBlocked is the code of a [*BlockedError]. Its value never changes.
const CodeBlocked agui.Code = "HTTP_ADDRESS_BLOCKED"

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
// Sources: RFC 6890 (special-purpose registries), RFC 1918 (private IPv4),
// RFC 6598 (shared address space, CGNAT), RFC 3927 and RFC 4291 (link-local),
// RFC 4193 (unique local IPv6), RFC 5771 and RFC 4291 (multicast); the
// metadata addresses are the instance metadata services of the major clouds.
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
// is checked as the IPv4 address it carries.
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
