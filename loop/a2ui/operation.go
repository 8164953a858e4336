package a2ui

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
)

// Version is the A2UI protocol version this package speaks; every
// [Operation] carries it.
const Version = "v0.9"

// Operation is one A2UI v0.9 server-to-client message: exactly one of its
// fields is set. It encodes as {"version":"v0.9","<operation>":{…}} (the
// A2UI v0.9 envelope, https://a2ui.org), and decoding refuses anything
// else: another version, no operation, two operations, or an operation
// this version does not define ([CodeUnknownOperation]).
//
// An Operation is a plain value; build one with [CreateSurfaceOp] and its
// siblings, or get a surface's with [Surface.Operations].
type Operation struct {
	CreateSurface    *CreateSurface
	UpdateComponents *UpdateComponents
	UpdateDataModel  *UpdateDataModel
	DeleteSurface    *DeleteSurface
}

// CreateSurface opens a surface rendered with the components of a catalog.
type CreateSurface struct {
	SurfaceID string `json:"surfaceId"`
	CatalogID string `json:"catalogId"`
	// Theme is the catalog's theme parameters; nil sends none.
	Theme map[string]any `json:"theme,omitempty"`
}

// UpdateComponents adds or replaces components of a surface, by id.
type UpdateComponents struct {
	SurfaceID  string      `json:"surfaceId"`
	Components []Component `json:"components"`
}

// UpdateDataModel sets the value at a JSON Pointer path of a surface's
// data model; an empty Path is the root ("/"), a nil Value removes the
// path's value.
type UpdateDataModel struct {
	SurfaceID string `json:"surfaceId"`
	Path      string `json:"path,omitempty"`
	Value     any    `json:"value,omitempty"`
}

// DeleteSurface removes a surface.
type DeleteSurface struct {
	SurfaceID string `json:"surfaceId"`
}

// CreateSurfaceOp returns the operation that opens surfaceID with the
// catalog catalogID.
func CreateSurfaceOp(surfaceID, catalogID string) Operation {
	return Operation{CreateSurface: &CreateSurface{SurfaceID: surfaceID, CatalogID: catalogID}}
}

// UpdateComponentsOp returns the operation that sets components of
// surfaceID.
func UpdateComponentsOp(surfaceID string, components ...Component) Operation {
	return Operation{UpdateComponents: &UpdateComponents{SurfaceID: surfaceID, Components: components}}
}

// UpdateDataModelOp returns the operation that sets the value at path of
// surfaceID's data model.
func UpdateDataModelOp(surfaceID, path string, value any) Operation {
	return Operation{UpdateDataModel: &UpdateDataModel{SurfaceID: surfaceID, Path: path, Value: value}}
}

// DeleteSurfaceOp returns the operation that removes surfaceID.
func DeleteSurfaceOp(surfaceID string) Operation {
	return Operation{DeleteSurface: &DeleteSurface{SurfaceID: surfaceID}}
}

// SurfaceID returns the surface the operation is about ("" for an empty
// Operation).
func (o Operation) SurfaceID() string {
	switch {
	case o.CreateSurface != nil:
		return o.CreateSurface.SurfaceID
	case o.UpdateComponents != nil:
		return o.UpdateComponents.SurfaceID
	case o.UpdateDataModel != nil:
		return o.UpdateDataModel.SurfaceID
	case o.DeleteSurface != nil:
		return o.DeleteSurface.SurfaceID
	}
	return ""
}

// MarshalJSON encodes o as a versioned envelope with its one operation.
func (o Operation) MarshalJSON() ([]byte, error) {
	key, body, n := "", any(nil), 0
	if o.CreateSurface != nil {
		key, body, n = "createSurface", o.CreateSurface, n+1
	}
	if o.UpdateComponents != nil {
		key, body, n = "updateComponents", o.UpdateComponents, n+1
	}
	if o.UpdateDataModel != nil {
		key, body, n = "updateDataModel", o.UpdateDataModel, n+1
	}
	if o.DeleteSurface != nil {
		key, body, n = "deleteSurface", o.DeleteSurface, n+1
	}
	if n != 1 {
		return nil, opError("a2ui: an operation has %d operations set, want 1", n)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString(`{"version":"` + Version + `","` + key + `":`)
	buf.Write(b)
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes one versioned envelope; see [Operation].
func (o *Operation) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return opError("a2ui: an operation is not a JSON object: %v", err)
	}
	var v string
	if err := json.Unmarshal(m["version"], &v); err != nil || v != Version {
		return opError("a2ui: operation version %s, want %q", m["version"], Version)
	}
	var out Operation
	for k, raw := range m {
		if k == "version" {
			continue
		}
		if out != (Operation{}) {
			return opError("a2ui: an operation holds two operations")
		}
		var err error
		switch k {
		case "createSurface":
			out.CreateSurface = new(CreateSurface)
			err = json.Unmarshal(raw, out.CreateSurface)
		case "updateComponents":
			out.UpdateComponents = new(UpdateComponents)
			err = json.Unmarshal(raw, out.UpdateComponents)
		case "updateDataModel":
			out.UpdateDataModel = new(UpdateDataModel)
			err = json.Unmarshal(raw, out.UpdateDataModel)
		case "deleteSurface":
			out.DeleteSurface = new(DeleteSurface)
			err = json.Unmarshal(raw, out.DeleteSurface)
		default:
			return opError("a2ui: unknown operation %q", k)
		}
		if err != nil {
			return opError("a2ui: %s: %v", k, err)
		}
	}
	if out == (Operation{}) {
		return opError("a2ui: an operation without an operation")
	}
	*o = out
	return nil
}

// opError is the error of an operation that is not one A2UI v0.9 defines.
func opError(format string, args ...any) error {
	return agui.NewError(CodeUnknownOperation, fmt.Sprintf(format, args...))
}
