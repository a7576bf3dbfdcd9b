defmodule Bench.BodyReader do
  @moduledoc """
  The body reader of `Plug.Parsers` on POST /validate.

  Bandit answers `{:more, ...}` to a chunked body that ends exactly at the
  `:length` limit, as it has not read the final chunk yet, and Plug.Parsers takes
  `:more` as "too large". One more read of at most one byte tells a body of
  exactly `:length` bytes (accepted) from a longer one (413).
  """

  def read_body(conn, opts) do
    case Plug.Conn.read_body(conn, opts) do
      {:more, body, conn} = more ->
        if byte_size(body) == Keyword.fetch!(opts, :length) do
          case Plug.Conn.read_body(conn, length: 1, read_length: 1) do
            {:ok, "", conn} -> {:ok, body, conn}
            {_ok_or_more, _byte, conn} -> {:more, body, conn}
            error -> error
          end
        else
          more
        end

      ok_or_error ->
        ok_or_error
    end
  end
end
