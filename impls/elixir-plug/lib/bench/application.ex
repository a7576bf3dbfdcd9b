defmodule Bench.Application do
  @moduledoc false

  use Application

  @impl true
  def start(_type, _args) do
    children =
      if Application.fetch_env!(:bench, :server), do: [{Bandit, bandit_options()}], else: []

    Supervisor.start_link(children, strategy: :one_for_one, name: Bench.Supervisor)
  end

  defp bandit_options do
    [
      plug: Bench.Router,
      scheme: :http,
      ip: Application.fetch_env!(:bench, :ip),
      port: Application.fetch_env!(:bench, :port),
      # A 16 KiB request target is still a request to answer, not a 414
      # (Bandit's default limit is 10,000 bytes).
      http_1_options: [max_request_line_length: 65_536]
    ]
  end
end
