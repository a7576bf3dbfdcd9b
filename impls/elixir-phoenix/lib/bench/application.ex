defmodule Bench.Application do
  @moduledoc false

  use Application

  @impl true
  def start(_type, _args) do
    children = [
      {Phoenix.PubSub, name: Bench.PubSub},
      BenchWeb.Endpoint
    ]

    Supervisor.start_link(children, strategy: :one_for_one, name: Bench.Supervisor)
  end

  @impl true
  def config_change(changed, _new, removed) do
    BenchWeb.Endpoint.config_change(changed, removed)
    :ok
  end
end
