package a2ui

// Surface is a whole surface as a model writes it in one call: the
// arguments of the render tool ([Render]). Operations turns it into the
// A2UI operations a client paints.
//
// A Surface is a plain value.
type Surface struct {
	ID string `json:"surfaceId"`
	// CatalogID names the component catalog; "" takes the catalog the
	// tool was given ([WithCatalog]).
	CatalogID  string      `json:"catalogId,omitempty"`
	Components []Component `json:"components"`
	// Data is the initial data model, written at its root; nil writes
	// none.
	Data any `json:"data,omitempty"`
}

// Operations returns the operations that paint s: createSurface,
// updateComponents, and updateDataModel at "/" when s has data.
func (s Surface) Operations() []Operation {
	ops := []Operation{
		CreateSurfaceOp(s.ID, s.CatalogID),
		UpdateComponentsOp(s.ID, s.Components...),
	}
	if s.Data != nil {
		ops = append(ops, UpdateDataModelOp(s.ID, "/", s.Data))
	}
	return ops
}

// Envelope is what a tool result carries to paint surfaces:
// {"a2ui_operations":[…]}, the form the A2UI middleware of the AG-UI
// runtime paints from a TOOL_CALL_RESULT. A plain value.
type Envelope struct {
	Operations []Operation `json:"a2ui_operations"`
}
