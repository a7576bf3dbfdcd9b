defmodule Bench.MixProject do
  use Mix.Project

  def project do
    [
      app: :bench,
      version: "1.0.0",
      elixir: "~> 1.14",
      elixirc_paths: elixirc_paths(Mix.env()),
      start_permanent: Mix.env() == :prod,
      deps: deps(),
      releases: [
        bench: [include_executables_for: [:unix], include_erts: true]
      ]
    ]
  end

  def application do
    [
      mod: {Bench.Application, []},
      extra_applications: [:logger]
    ]
  end

  defp elixirc_paths(:test), do: ["lib", "test/support"]
  defp elixirc_paths(_env), do: ["lib"]

  # Every dependency, transitive ones included, is pinned to an exact version:
  # hex.pm is unreachable where this entry was written, so no mix.lock could be
  # generated (see README). The last versions that support Elixir 1.14 / OTP 25.
  defp deps do
    [
      {:phoenix, "== 1.7.24"},
      {:bandit, "== 1.11.1"},
      {:jason, "== 1.4.5"},
      # transitive
      {:plug, "== 1.19.2"},
      {:plug_crypto, "== 2.1.1"},
      {:mime, "== 2.0.7"},
      {:telemetry, "== 1.4.1"},
      {:phoenix_pubsub, "== 2.2.0"},
      {:phoenix_template, "== 1.0.4"},
      {:websock, "== 0.5.3"},
      {:websock_adapter, "== 0.5.9"},
      {:castore, "== 1.0.19"},
      {:thousand_island, "== 1.4.3"},
      {:hpax, "== 1.0.3"}
    ]
  end
end
