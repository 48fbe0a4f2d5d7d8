module github.com/nish-driver/nish-driver

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	github.com/godbus/dbus/v5 v5.2.4
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/xeipuuv/gojsonschema v1.2.0
	golang.org/x/sys v0.41.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/xeipuuv/gojsonpointer v0.0.0-20180127040702-4e3ac2762d5f // indirect
	github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
