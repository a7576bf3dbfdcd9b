defmodule Bench.Response do
  @moduledoc """
  JSON responses, built per request with Jason. Bandit adds `content-length`.
  """
  import Plug.Conn

  def json(conn, status, body) do
    conn
    |> put_resp_content_type("application/json")
    |> send_resp(status, Jason.encode_to_iodata!(body))
  end

  @doc "An error response: `status` and `{\"error\": message}`."
  def error(conn, status, message), do: json(conn, status, %{error: message})

  @doc "405 with an `Allow` header, for a known path requested with another method."
  def method_not_allowed(conn, allow) do
    conn
    |> put_resp_header("allow", allow)
    |> error(405, "#{request_line(conn)} is not allowed, use #{allow}")
  end

  @doc """
  The method and path of a request for an error message. The raw path may hold
  bytes that are not UTF-8 (which JSON cannot carry), so non-ASCII bytes are
  shown percent-encoded.
  """
  def request_line(%Plug.Conn{method: method, request_path: path}),
    do: ascii(method) <> " " <> ascii(path)

  defp ascii(binary) do
    for <<byte <- binary>>, into: "" do
      if byte < 128, do: <<byte>>, else: "%" <> Base.encode16(<<byte>>)
    end
  end
end
