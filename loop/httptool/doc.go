// Package httptool is a built-in loop tool that makes HTTP requests for
// the model, safely by default.
//
// Give the model the tool and it can call any public HTTP or HTTPS
// address:
//
//	fetch, err := httptool.New(
//		httptool.WithTimeout(10*time.Second),
//		httptool.WithMaxBodyBytes(64<<10),
//	)
//	if err != nil { ... }
//	agent, err := loop.New(provider, loop.WithTools(fetch))
//
// The model sends a method, a URL, headers and a body ([Request]) and gets
// back the status, the headers and the body, cut at the body limit
// ([Response]). The call runs under the run's context: aborting the run
// cancels the request.
//
// # What the tool refuses
//
// By default the tool never connects to loopback, private (RFC 1918 and
// RFC 4193), link-local, CGNAT (RFC 6598), unspecified, multicast or
// reserved addresses, to any other range the IANA IPv4 and IPv6
// Special-Purpose Address Registries (RFC 6890 and its updates) mark as
// not globally reachable (documentation, benchmarking, IPv4-compatible and
// IPv4-translated IPv6, local-use NAT64, Teredo, discard-only…), nor to
// the cloud metadata services (169.254.169.254, fd00:ec2::254), so that a model cannot be talked into reaching the
// host's own network (server-side request forgery). The check runs in the
// dialer, on every address it is about to connect to, after the name was
// resolved: a host name that resolves to a private address, a DNS answer
// that changes between two lookups, and a redirect to an internal address
// are all refused with a [*BlockedError] (code [CodeBlocked]). IPv4-mapped
// and NAT64 (64:ff9b::/96) IPv6 addresses are checked as the IPv4 address
// they carry, and a 6to4 address (2002::/16) whose IPv4 address is refused
// is refused. Only http
// and https URLs are followed, and no proxy is used.
//
// [WithAllow] opens given networks or addresses (a service on the private
// network, or a test server on 127.0.0.1); [WithAllowHosts] restricts the
// tool to named hosts; [WithMaxRedirects] caps redirects.
package httptool
