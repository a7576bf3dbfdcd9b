import Config

# No access log: nothing plugs Plug.Logger, and only warnings reach the console
# (Bandit's startup line is :info).
config :logger, level: :warning

# Tests call Bench.Router in-process with Plug.Test; no listener.
config :bench, server: config_env() != :test
