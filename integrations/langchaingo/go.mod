module github.com/agui-go/agui/integrations/langchaingo

go 1.26.0

require (
	github.com/agui-go/agui v0.0.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkoukk/tiktoken-go v0.1.6 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	github.com/tmc/langchaingo v0.1.14
	github.com/wI2L/jsondiff v0.7.1 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/agui-go/agui => ../..
