defmodule BenchWeb.FallbackController do
  @moduledoc """
  Turns the `{:error, message}` a controller action returns into a 400.
  """
  use BenchWeb, :controller

  def call(conn, {:error, message}) when is_binary(message) do
    conn
    |> put_status(:bad_request)
    |> put_view(json: BenchWeb.ErrorJSON)
    |> render(:"400", message: message)
  end
end
