import Config

# Tests dispatch through the endpoint in-process; no listener.
config :bench, BenchWeb.Endpoint, server: false

config :logger, level: :warning
