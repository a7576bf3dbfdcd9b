defmodule BenchWeb.MethodNotAllowed do
  @moduledoc """
  Routed to for a known path requested with a method it does not serve.
  The route's options are the value of the `allow` header.
  """
  @behaviour Plug

  import Plug.Conn
  import Phoenix.Controller

  @impl true
  def init(allow) when is_binary(allow), do: allow

  @impl true
  def call(conn, allow) do
    message = "#{BenchWeb.ErrorJSON.request_line(conn)} is not allowed, use #{allow}"

    conn
    |> put_resp_header("allow", allow)
    |> put_status(:method_not_allowed)
    |> put_format("json")
    |> put_view(json: BenchWeb.ErrorJSON)
    |> render(:"405", message: message)
  end
end
