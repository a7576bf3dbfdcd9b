defmodule Bench.Validate do
  @moduledoc """
  POST /validate: the media type, then `Plug.Parsers` (JSON by Jason, at most
  1 MiB), then the fields, validated by pattern matching and guards.
  """
  use Plug.Builder

  alias Bench.Response

  @max_body_bytes 1_048_576

  plug :require_json_content_type

  plug Plug.Parsers,
    parsers: [:json],
    json_decoder: Bench.JSON,
    length: @max_body_bytes,
    body_reader: {Bench.BodyReader, :read_body, []},
    # Every decoded document lands under "_json", so an object can be told
    # from `[]`, `null` or `42`.
    nest_all_json: true

  plug :validate

  def max_body_bytes, do: @max_body_bytes

  # Plug.Parsers would also parse `application/*+json` and let a request without
  # a Content-Type through; the contract accepts application/json only.
  defp require_json_content_type(conn, _opts) do
    content_type = conn |> get_req_header("content-type") |> List.first()

    case content_type && Plug.Conn.Utils.content_type(content_type) do
      {:ok, "application", "json", _params} -> conn
      _ -> raise Plug.Parsers.UnsupportedMediaTypeError, media_type: content_type || "(none)"
    end
  end

  # The body alone is validated (`body_params`, not the merged `params`), so a
  # query string can never supply a field.
  defp validate(%Plug.Conn{body_params: body} = conn, _opts) do
    with {:ok, fields} <- json_object(body),
         {:ok, name} <- name(fields),
         {:ok, age} <- age(fields) do
      Response.json(conn, 200, %{name: name, age: age, valid: true})
    else
      {:error, message} -> Response.error(conn, 400, message)
    end
  end

  defp json_object(%{"_json" => %{} = object}), do: {:ok, object}
  defp json_object(_other), do: {:error, "the request body must be a JSON object"}

  defp name(%{"name" => name}) when is_binary(name) and byte_size(name) > 0, do: {:ok, name}
  defp name(%{"name" => ""}), do: {:error, "name must not be empty"}
  defp name(%{"name" => _}), do: {:error, "name must be a string"}
  defp name(_fields), do: {:error, "name is required"}

  defp age(%{"age" => age}) when is_integer(age) and age in 0..150, do: {:ok, age}

  # Jason decodes `30.0` and `3e1` as floats; an integral one is that integer.
  defp age(%{"age" => age}) when is_float(age) and age >= 0 and age <= 150 and age == trunc(age),
    do: {:ok, trunc(age)}

  defp age(%{"age" => age}) when is_number(age),
    do: {:error, "age must be an integer between 0 and 150"}

  defp age(%{"age" => _}), do: {:error, "age must be a number"}
  defp age(_fields), do: {:error, "age is required"}
end
