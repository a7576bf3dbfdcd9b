defmodule BenchWeb.Endpoint do
  use Phoenix.Endpoint, otp_app: :bench

  plug Plug.Telemetry, event_prefix: [:phoenix, :endpoint]

  # Plug.Parsers is not here but in the router's :json_body pipeline, so only
  # POST /validate reads a body and a wrong method or path is never a 415.
  plug BenchWeb.Router
end
