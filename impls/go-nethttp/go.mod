module github.com/fairbench/impls/go-nethttp

go 1.26
