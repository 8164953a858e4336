package core

import (
	"context"
	"net/http"
)

// RouteInfo names what served a run, for log lines and metric labels: the
// route's pattern and the agent's name. Both are chosen by the
// application, never taken from what a client sent, so their cardinality
// is bounded and they are safe as metric labels.
//
// A RouteInfo is a plain value, safe to copy and share.
type RouteInfo struct {
	// Route is the pattern the request matched, such as "/agents/echo"
	// (Gin) or "POST /agents/echo" ([http.ServeMux]).
	Route string
	// Agent is the agent's name, set with [WithAgentName].
	Agent string
}

// routeKey is the context key of a RouteInfo.
type routeKey struct{}

// ContextWithRoute returns a copy of ctx carrying ri, which [RouteFrom]
// returns. A [Handler] serving a request whose context carries a [RouteInfo]
// fills what its own options ([WithRoute], [WithAgentName]) leave empty from
// it; framework adapters use it to pass their route pattern.
func ContextWithRoute(ctx context.Context, ri RouteInfo) context.Context {
	return context.WithValue(ctx, routeKey{}, ri)
}

// RouteFrom returns the [RouteInfo] on ctx. A [Handler] puts one on the
// context of every run it serves, so agents and transformers (see
// [RunStarter]) read the route and agent they serve with it.
func RouteFrom(ctx context.Context) (RouteInfo, bool) {
	ri, ok := ctx.Value(routeKey{}).(RouteInfo)
	return ri, ok
}

// WithRoute names the handler's route in its log lines, in its refusals
// (see [WithRefusalHook]) and on its runs' context (see [RouteFrom]). Default:
// the Route of a [RouteInfo] already on the request's context (see
// [ContextWithRoute]), else the request's [http.Request.Pattern], which
// [http.ServeMux] sets (and ginagui sets to the Gin route), else "".
func WithRoute(pattern string) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.ops.route.Route = pattern })
}

// WithAgentName names the handler's agent in its log lines, in its
// refusals and on its runs' context (see [RouteFrom]). Default: the Agent
// of a [RouteInfo] already on the request's context, else "".
func WithAgentName(name string) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.ops.route.Agent = name })
}

// routeOf returns the RouteInfo of a request: the handler's own names,
// completed from the request's context and pattern.
func (ir *InputReader) routeOf(ctx context.Context, r *http.Request) RouteInfo {
	ri := ir.cfg.ops.route
	if ri.Route != "" && ri.Agent != "" {
		return ri
	}
	if from, ok := RouteFrom(ctx); ok {
		if ri.Route == "" {
			ri.Route = from.Route
		}
		if ri.Agent == "" {
			ri.Agent = from.Agent
		}
	}
	if ri.Route == "" && r != nil {
		ri.Route = r.Pattern
	}
	return ri
}

// withRoute returns ctx carrying the request's RouteInfo, unless it
// already carries exactly that one or there is none to carry.
func (ir *InputReader) withRoute(ctx context.Context, r *http.Request) context.Context {
	ri := ir.routeOf(ctx, r)
	if from, ok := RouteFrom(ctx); (ok && from == ri) || (!ok && ri == RouteInfo{}) {
		return ctx // nothing to add
	}
	return ContextWithRoute(ctx, ri)
}
