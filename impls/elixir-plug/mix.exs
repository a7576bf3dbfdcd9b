defmodule Bench.MixProject do
  use Mix.Project

  def project do
    [
      app: :bench,
      version: "1.0.0",
      elixir: "~> 1.14",
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

  # Every dependency, transitive ones included, is pinned to an exact version, the
  # same as in impls/elixir-phoenix (this entry is its baseline): hex.pm is
  # unreachable where this entry was written, so no mix.lock could be generated
  # (see README).
  defp deps do
    [
      {:bandit, "== 1.11.1"},
      {:plug, "== 1.19.2"},
      {:jason, "== 1.4.5"},
      # transitive
      {:plug_crypto, "== 2.1.1"},
      {:mime, "== 2.0.7"},
      {:telemetry, "== 1.4.1"},
      {:websock, "== 0.5.3"},
      {:thousand_island, "== 1.4.3"},
      {:hpax, "== 1.0.3"}
    ]
  end
end
