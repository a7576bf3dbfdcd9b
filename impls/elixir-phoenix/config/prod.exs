import Config

# No access log: Phoenix's request logging is off and only warnings reach the console.
config :phoenix, :logger, false
config :logger, level: :warning
