defmodule BenchWeb.ConnCase do
  @moduledoc """
  Tests that dispatch requests through `BenchWeb.Endpoint` with `Phoenix.ConnTest`.
  """
  use ExUnit.CaseTemplate

  using do
    quote do
      @endpoint BenchWeb.Endpoint

      import Plug.Conn
      import Phoenix.ConnTest
      import BenchWeb.ConnCase
    end
  end

  setup do
    {:ok, conn: Phoenix.ConnTest.build_conn()}
  end

  @doc "POSTs `body` to /validate as application/json."
  def post_json(conn, body) do
    conn
    |> Plug.Conn.put_req_header("content-type", "application/json")
    |> Phoenix.ConnTest.dispatch(BenchWeb.Endpoint, :post, "/validate", body)
  end
end
