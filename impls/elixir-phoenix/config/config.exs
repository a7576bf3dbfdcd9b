import Config

config :bench, BenchWeb.Endpoint,
  url: [host: "localhost"],
  adapter: Bandit.PhoenixAdapter,
  render_errors: [formats: [json: BenchWeb.ErrorJSON], layout: false],
  pubsub_server: Bench.PubSub

config :logger, :console, format: "$time $metadata[$level] $message\n"

config :phoenix, :json_library, Jason

import_config "#{config_env()}.exs"
