// Command server is the fairbench baseline for Go: the contract of docs/SPEC.md on the standard
// library alone (net/http, encoding/json), the floor under go-gin.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type settings struct {
	host    string
	port    int
	workers int
}

// settingsFromEnv reads HOST, PORT and WORKERS (SPEC 0.1, 0.2) with the manifest's defaults.
func settingsFromEnv(getenv func(string) string) (settings, error) {
	s := settings{host: strings.TrimSpace(getenv("HOST")), port: 8080, workers: 1}
	if s.host == "" {
		s.host = "0.0.0.0"
	}
	var err error
	if s.port, err = intSetting(getenv, "PORT", s.port, 1, 65535); err != nil {
		return s, err
	}
	if s.workers, err = intSetting(getenv, "WORKERS", s.workers, 1, 1024); err != nil {
		return s, err
	}
	return s, nil
}

func intSetting(getenv func(string) string, name string, fallback, lo, hi int) (int, error) {
	raw := strings.TrimSpace(getenv(name))
	if raw == "" {
		return fallback, nil
	}
	v, err := strconv.Atoi(raw)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%s must be an integer from %d to %d, got %q", name, lo, hi, raw)
	}
	return v, nil
}

func main() {
	s, err := settingsFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "go-nethttp:", err)
		os.Exit(2)
	}
	// WORKERS is the number of OS threads running Go code at once.
	runtime.GOMAXPROCS(s.workers)

	addr := net.JoinHostPort(s.host, strconv.Itoa(s.port))
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-nethttp: cannot listen on %s: %v\n", addr, err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: newMux(), ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(listener) }()
	fmt.Printf("go-nethttp listening on %s with GOMAXPROCS=%d\n", addr, s.workers)

	select {
	case err := <-serveErr:
		fmt.Fprintln(os.Stderr, "go-nethttp: server stopped:", err)
		os.Exit(1)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintln(os.Stderr, "go-nethttp: shutdown:", err)
	}
}
