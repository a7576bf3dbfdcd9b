-- fairbench's wrk script. Arguments after `--`: METHOD BODY_FILE|- DEPTH CLOSE
--   BODY_FILE  a POST sends its bytes with Content-Type application/json; "-" for none
--   DEPTH      requests written per connection at once (pipelining, as TechEmpower's plaintext test); 1 for none
--   CLOSE      1: every request carries Connection: close, so each one opens a new connection
-- done() prints one machine-readable line that starts with "FAIRBENCH-RESULT ".

function init(args)
  local method = args[1] or "GET"
  local depth = tonumber(args[3] or "1")
  wrk.method = method
  if args[2] and args[2] ~= "-" then
    local file = assert(io.open(args[2], "rb"))
    wrk.body = file:read("*a")
    file:close()
    wrk.headers["Content-Type"] = "application/json"
  end
  if args[4] == "1" then
    wrk.headers["Connection"] = "close"
  end
  if depth > 1 then
    local one = wrk.format()
    local many = {}
    for i = 1, depth do
      many[i] = one
    end
    local pipelined = table.concat(many)
    -- Defined only here: wrk calls a global request() for every write once init() has made one
    -- (its "dynamic" path, a Lua call and a copy per request: 10-15% more of the client's CPU a
    -- request, measured). Without it wrk formats the request once and keeps sending those bytes.
    request = function()
      return pipelined
    end
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
