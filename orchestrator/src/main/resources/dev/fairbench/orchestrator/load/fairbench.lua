-- fairbench's wrk script. Arguments after `--`: METHOD [BODY_FILE].
-- A POST sends the body of BODY_FILE with Content-Type application/json.
-- done() prints one machine-readable line that starts with "FAIRBENCH-RESULT ".

function init(args)
  local method = args[1] or "GET"
  wrk.method = method
  if args[2] then
    local file = assert(io.open(args[2], "rb"))
    wrk.body = file:read("*a")
    file:close()
    wrk.headers["Content-Type"] = "application/json"
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "FAIRBENCH-RESULT requests=%d duration_us=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d " ..
    "p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d mean_us=%.1f\n",
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, latency.mean))
end
