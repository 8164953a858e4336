// Command gin-app serves every feature of this SDK from one Gin app.
package main

import (
	"flag"
	"log"

	"github.com/gin-gonic/gin"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	r := gin.New()
	r.GET("/healthz", func(c *gin.Context) { c.String(200, "ok") })
	log.Printf("listening on http://%s", *addr)
	log.Fatal(r.Run(*addr))
}
