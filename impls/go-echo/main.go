// Command server is fairbench's Echo entry: the contract of docs/SPEC.md on
// github.com/labstack/echo/v4, in release mode (no banner, no logger, no debug).
package main

import (
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
)

func main() {
	workers, err := envInt("WORKERS", 1)
	if err != nil {
		log.Fatal(err)
	}
	runtime.GOMAXPROCS(workers)

	addr := net.JoinHostPort(envString("HOST", "0.0.0.0"), envString("PORT", "8080"))
	e := newServer()
	if err := e.Start(addr); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

func envString(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func envInt(name string, fallback int) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return fallback, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s must be a positive integer, got %q", name, v)
	}
	return n, nil
}
