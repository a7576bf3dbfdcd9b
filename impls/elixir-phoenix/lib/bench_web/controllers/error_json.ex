defmodule BenchWeb.ErrorJSON do
  @moduledoc """
  Renders every error response, whether a controller asked for it or the
  endpoint caught an exception (see `render_errors` in config/config.exs).
  """

  def render(_template, %{message: message}), do: %{error: message}

  def render(template, %{reason: reason}) do
    %{error: message(reason) || Phoenix.Controller.status_message_from_template(template)}
  end

  def render(template, _assigns) do
    %{error: Phoenix.Controller.status_message_from_template(template)}
  end

  defp message(%Phoenix.Router.NoRouteError{conn: conn}),
    do: "no route for #{request_line(conn)}"

  defp message(%Plug.Parsers.UnsupportedMediaTypeError{media_type: media_type}),
    do: "unsupported media type #{media_type}: the body must be application/json"

  defp message(%Plug.Parsers.RequestTooLargeError{}),
    do: "the request body is larger than 1048576 bytes"

  defp message(%Plug.Parsers.ParseError{exception: %Jason.DecodeError{} = error}),
    do: "the request body is not valid JSON: " <> Exception.message(error)

  defp message(%Plug.Parsers.ParseError{exception: %BenchWeb.JSON.NestingTooDeepError{} = error}),
    do: "the request body is refused: " <> Exception.message(error)

  defp message(%Plug.Parsers.ParseError{}), do: "the request body is not valid JSON"

  defp message(%{plug_status: status} = exception) when status in 400..499 do
    message = Exception.message(exception)
    if String.valid?(message), do: message
  end

  # Anything else (a 5xx) keeps the generic status message: no internals leak.
  defp message(_reason), do: nil

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
