package main

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// weather is get_weather's result, with the fields the Dojo's weather
// card reads.
type weather struct {
	City        string `json:"city"`
	Temperature int    `json:"temperature"`
	Conditions  string `json:"conditions"`
	Humidity    int    `json:"humidity"`
	WindSpeed   int    `json:"wind_speed"`
	FeelsLike   int    `json:"feelsLike"`
}

// registerWeather serves backend_tool_rendering: a server tool,
// get_weather(location), whose call and result the page renders as a
// card once TOOL_CALL_RESULT arrives; the model then answers in text.
func registerWeather(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
	type in struct {
		Location string `json:"location" jsonschema:"the city, e.g. San Francisco"`
	}
	tool, err := loop.NewTool("get_weather", "Current weather for a location",
		func(ctx context.Context, in in) (weather, error) {
			// A fixed report: the demo is the rendering, not the forecast.
			return weather{City: in.Location, Temperature: 20, Conditions: "sunny", Humidity: 50, WindSpeed: 10, FeelsLike: 25}, nil
		})
	if err != nil {
		return err
	}
	a, err := loop.New(provider, loop.WithTools(tool),
		loop.WithInstructions("You are a weather assistant. Call get_weather for the location the user names, then sum the report up."))
	if err != nil {
		return err
	}
	return ginagui.Register(g, path, a, opts...)
}
