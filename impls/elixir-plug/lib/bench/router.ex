defmodule Bench.Router do
  @moduledoc """
  The four endpoints of the contract (docs/SPEC.md) as a `Plug.Router` on Bandit.

  Errors that plugs raise (`Plug.Parsers`' 400, 413 and 415, a malformed path's
  400) are answered by `handle_errors/2`, which `Plug.ErrorHandler` calls with the
  status already set from the exception's `plug_status`.
  """
  use Plug.Router
  use Plug.ErrorHandler

  alias Bench.JSON.NestingTooDeepError
  alias Bench.Response

  plug :match
  plug :dispatch

  get "/plaintext" do
    conn
    |> put_resp_content_type("text/plain")
    |> send_resp(200, "Hello, World!")
  end

  get "/json" do
    Response.json(conn, 200, %{message: "Hello, World!"})
  end

  get "/user/:id" do
    # Plug.Router has percent-decoded the segment once; the bytes may not be UTF-8 (`%FF`).
    if String.valid?(id) do
      Response.json(conn, 200, %{id: id, name: "User " <> id})
    else
      Response.error(conn, 400, "the user id is not valid UTF-8 once percent-decoded")
    end
  end

  # Plug.Parsers runs in this pipeline only, so a wrong method or path is never
  # read as a body nor answered 415.
  post "/validate", to: Bench.Validate

  # Plug.Router treats a known path with another method as an unknown one; these
  # catch-alls come after the real routes and answer 405 instead.
  match "/plaintext", do: Response.method_not_allowed(conn, "GET")
  match "/json", do: Response.method_not_allowed(conn, "GET")
  match "/user/:_id", do: Response.method_not_allowed(conn, "GET")
  match "/validate", do: Response.method_not_allowed(conn, "POST")

  match _ do
    Response.error(conn, 404, "no route for " <> Response.request_line(conn))
  end

  @impl Plug.ErrorHandler
  # A body cut short or a reset: the connection is gone and Bandit answers nothing.
  def handle_errors(conn, %{reason: %Bandit.TransportError{}}), do: conn

  def handle_errors(conn, %{reason: reason}) do
    Response.error(conn, conn.status, message(conn.status, reason))
  end

  defp message(_status, %Plug.Parsers.UnsupportedMediaTypeError{media_type: media_type}),
    do: "unsupported media type #{media_type}: the body must be application/json"

  defp message(_status, %Plug.Parsers.RequestTooLargeError{}),
    do: "the request body is larger than #{Bench.Validate.max_body_bytes()} bytes"

  defp message(_status, %Plug.Parsers.ParseError{exception: %Jason.DecodeError{} = error}),
    do: "the request body is not valid JSON: " <> Exception.message(error)

  defp message(_status, %Plug.Parsers.ParseError{exception: %NestingTooDeepError{} = error}),
    do: "the request body is refused: " <> Exception.message(error)

  defp message(status, exception) when status in 400..499 and is_exception(exception) do
    message = Exception.message(exception)
    if String.valid?(message), do: message, else: Plug.Conn.Status.reason_phrase(status)
  end

  # Anything else (a 5xx) keeps the generic reason phrase: no internals leak.
  defp message(status, _reason), do: Plug.Conn.Status.reason_phrase(status)
end
