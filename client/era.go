package client

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agui-go/agui"
)

// This file holds the compatibility rules for agents older than 1.0, after
// @ag-ui/client's version gates: what the request leaves out for them and
// what of their stream the client drops.

// parseVersion3 reads MAJOR.MINOR[.PATCH].
func parseVersion3(v string) ([3]int, bool) {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return [3]int{}, false
	}
	var out [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return [3]int{}, false
		}
		out[i] = n
	}
	return out, true
}

// atMost reports whether the agent is declared at version v or older.
func (c *config) atMost(v string) bool {
	if c.agentVersion == "" {
		return false
	}
	have, _ := parseVersion3(c.agentVersion)
	limit, _ := parseVersion3(v)
	return slices.Compare(have[:], limit[:]) <= 0
}

// request returns in as the agent should receive it: declaring the
// client's own protocol version, [agui.LatestProtocolVersion], whatever in
// says, as @ag-ui/client declares its own, and, for a pre-1.0 agent,
// without what it does not get, with warnings.
func (c *config) request(in *agui.RunAgentInput) *agui.RunAgentInput {
	if have, _ := parseVersion3(c.agentVersion); c.agentVersion == "" || have[0] > 0 {
		if in.ProtocolVersion == agui.LatestProtocolVersion {
			return in
		}
		out := *in
		out.ProtocolVersion = agui.LatestProtocolVersion
		return &out
	}
	out := *in
	// A peer older than protocolVersion does not know the field.
	out.ProtocolVersion = ""
	if c.atMost("0.0.39") {
		out.Messages = slices.Clone(in.Messages)
		for i, m := range out.Messages {
			u, ok := m.(*agui.UserMessage)
			if !ok || !u.Content.IsParts() {
				continue
			}
			flat := *u
			var text []string
			dropped := false
			for _, p := range u.Content.Parts {
				if p.Type == agui.PartText {
					text = append(text, p.Text)
				} else {
					dropped = true
				}
			}
			flat.Content = agui.TextContent(strings.Join(text, "\n"))
			out.Messages[i] = &flat
			if dropped {
				c.warn(Warning{Message: "the agent speaks AG-UI " + c.agentVersion + ", which DROPS non-text parts: message " + u.ID + " is sent as its text only"})
			}
		}
	}
	return &out
}

// era drops from a pre-1.0 agent's stream what its version cannot have
// meant: before 0.0.57 there were no subagents, so their events and
// attribution go, with one warning per event type. It reports false for a
// dropped event.
func (p *pipeline) era(ev agui.Event) bool {
	if !p.agent.cfg.atMost("0.0.57") {
		return true
	}
	switch ev.(type) {
	case *agui.SubagentStarted, *agui.SubagentFinished, *agui.SubagentError:
		p.warnf(ev.Type(), "dropping "+string(ev.Type())+": the agent speaks AG-UI "+p.agent.cfg.agentVersion+", which has no subagents")
		return false
	}
	if a, ok := ev.(agui.Attributed); ok && agui.SubagentOf(ev) != "" {
		a.SetSubagent("")
	}
	return true
}
