import Config

config :bench, BenchWeb.Endpoint, debug_errors: false, code_reloader: false

config :logger, level: :debug
